# frozen_string_literal: true

require_relative "test_helper"
require "zlib"
require "ractorbench/stats/bootstrap"

# The bootstrap draws each resample's median without building the resample
# (independent sides) or from Integer ranks (paired sides): both must give
# what resampling by the definition gives.
class ResampledMedianTest < Minitest::Test
  include Ractorbench::Stats

  # Every one of the n**n resamples of a small sample, counted: the exact
  # distribution of a resample's median.
  def exact_distribution(sorted)
    n = sorted.size
    counts = Hash.new(0)
    (0...n).to_a.repeated_permutation(n) { |picks| counts[Ractorbench::Stats.median_of_sorted(picks.map { |i| sorted[i] }.sort)] += 1 }
    counts.transform_values { |c| c.fdiv(n**n) }
  end

  def drawn_distribution(sorted, draws)
    median = ResampledMedian.new(sorted)
    rng = Random.new(7)
    counts = Hash.new(0)
    draws.times { counts[median.draw(rng)] += 1 }
    counts.transform_values { |c| c.fdiv(draws) }
  end

  # Odd and even sizes (the even median needs the next pick up too), and
  # ties. 200,000 draws: a probability's standard error is at most 0.0011, so
  # 0.005 is over four of them; the upper median's rank for the lower one,
  # the lower median alone for an even n, or a coin for "the next pick up is
  # the same run" each miss by 0.008 to 0.05.
  def test_draws_follow_the_exact_distribution_of_a_resampled_median
    [[1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 2.0, 3.5, 4.0, 7.0, 9.0], [1.0, 1.0, 2.0, 3.0, 3.0, 8.0]].each do |sample|
      exact = exact_distribution(sample)
      drawn = drawn_distribution(sample, 200_000)
      assert_empty drawn.keys - exact.keys, "medians no resample can have, for #{sample}"
      exact.each { |value, p| assert_in_delta p, drawn.fetch(value, 0.0), 0.005, "P(median = #{value}) for #{sample}" }
    end
  end

  # Independent sides at 50 runs: the interval from drawn medians is the
  # interval from resampling, to within Monte Carlo error.
  def test_independent_sides_agree_with_resampling
    rng = Random.new(11)
    slow = Array.new(50) { 2.0 + rng.rand }
    fast = Array.new(49) { 1.0 + rng.rand }
    ci = Bootstrap.ratio_of_medians(slow, fast, label: "agree", resamples: 20_000)
    refute ci.paired
    by_definition = Array.new(20_000) do
      median(Array.new(50) { slow[rng.rand(50)] }) / median(Array.new(49) { fast[rng.rand(49)] })
    end.sort
    assert_in_delta by_definition[500], ci.low, 0.01 * ci.estimate
    assert_in_delta by_definition[19_499], ci.high, 0.01 * ci.estimate
  end

  # Paired sides: the very draws of resampling repetitions by the definition
  # (same seed, same picks), odd and even, with ties.
  def test_paired_draws_are_those_of_resampling_repetitions
    [25, 40].each do |n|
      rng = Random.new(n)
      slow = (1..n).to_h { |rep| [rep, (2.0 + rng.rand).round(1)] }
      fast = (1..n).to_h { |rep| [rep, (1.0 + rng.rand).round(1)] }
      ci = Bootstrap.ratio_of_medians(slow, fast, label: "pairs #{n}", large_sample: Float::INFINITY)
      assert ci.paired
      picker = Random.new(Zlib.crc32("pairs #{n}"))
      num = slow.values
      den = fast.values
      expected = Array.new(Bootstrap::RESAMPLES) do
        picks = Array.new(n) { picker.rand(n) }
        median(picks.map { |i| num[i] }) / median(picks.map { |i| den[i] })
      end
      assert_equal expected, ci.draws
    end
  end

  private

  def median(values) = Ractorbench::Stats.median_of_sorted(values.sort)
end
