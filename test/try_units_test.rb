# frozen_string_literal: true

require "test_helper"
require "ractorbench/stats/amdahl"
require "ractorbench/advisor/sweep_plan"

# The Amdahl fit and the sweep's sizes, against values worked out by hand.
class TryUnitsTest < Minitest::Test
  # Exact data from f = 0.1: S(n) = 1 / (0.1 + 0.9 / n).
  def test_amdahl_recovers_an_exact_serial_fraction
    pairs = [1, 2, 4, 8].map { |n| [n, 1 / (0.1 + 0.9 / n)] }
    fit = Ractorbench::Stats::Amdahl.new(pairs)
    assert_in_delta 0.1, fit.fraction, 1e-12
    assert_in_delta 0.0, fit.stderr, 1e-12
    assert_equal 3, fit.points, "n = 1 carries no information"
    assert_in_delta 10.0, fit.max_speedup, 1e-9
    assert_equal :scales, fit.kind
  end

  # By hand: x = 1 - 1/n = [0.5, 0.75], y = 1/S - 1/n = [0.125, 0.15];
  # f = (0.5*0.125 + 0.75*0.15) / (0.25 + 0.5625) = 0.175 / 0.8125;
  # residuals 0.125 - 0.5f and 0.15 - 0.75f, se = sqrt(sum r^2 / 1 / 0.8125).
  def test_amdahl_least_squares_on_noisy_points
    fit = Ractorbench::Stats::Amdahl.new([[2, 1.6], [4, 2.5]])
    f = 0.175 / 0.8125
    assert_in_delta f, fit.fraction, 1e-12
    se = Math.sqrt(((0.125 - 0.5 * f)**2 + (0.15 - 0.75 * f)**2) / 0.8125)
    assert_in_delta se, fit.stderr, 1e-12
    assert_in_delta 1 / (f + (1 - f) / 3), fit.speedup_at(3), 1e-12
  end

  def test_amdahl_kinds
    assert_equal :flat, Ractorbench::Stats::Amdahl.new([[2, 1.0]]).kind
    assert_equal :worse, Ractorbench::Stats::Amdahl.new([[2, 0.5]]).kind
    assert_equal :superlinear, Ractorbench::Stats::Amdahl.new([[2, 2.5]]).kind
    # f = (1/2.01 - 1/2) / (1/2) = -0.005: noise around linear, not superlinear.
    assert_equal :linear, Ractorbench::Stats::Amdahl.new([[2, 2.01]]).kind
    assert_nil Ractorbench::Stats::Amdahl.new([[1, 1.0]]).kind
  end

  def test_worker_counts_reach_twice_the_usable_cores
    plan = Ractorbench::Advisor::SweepPlan
    assert_equal [1, 2], plan.worker_counts(1)
    assert_equal [1, 2, 3, 4], plan.worker_counts(2)
    assert_equal (1..8).to_a, plan.worker_counts(4)
    assert_equal [1, 2, 4, 6, 8, 12], plan.worker_counts(6)
  end

  # Every worker count must divide the items, so each run does the same work.
  def test_items_are_a_multiple_of_every_worker_count
    plan = Ractorbench::Advisor::SweepPlan
    assert_equal 12, plan.items(10, nil, [1, 2, 3, 4]).first
    n, = plan.items(nil, 0.001, [1, 2, 3, 4])
    assert_equal 0, n % 12
    assert_operator n, :>=, 250
    assert_equal 99_996, plan.items(nil, 1e-9, [1, 2, 3, 4]).first
    assert_equal 12, plan.items(nil, 0.5, [1, 2, 3, 4]).first, "coarse items: still 3 per worker at the most workers"
    assert_equal [4], plan.thin(8, [1, 2, 4])
  end
end
