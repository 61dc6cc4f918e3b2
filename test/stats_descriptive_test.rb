# frozen_string_literal: true

require "test_helper"
require "ractorbench/stats/descriptive"

# Reference values computed by hand (shown in each test).
class StatsDescriptiveTest < Minitest::Test
  Descriptive = Ractorbench::Stats::Descriptive

  def test_odd_sample
    # values 3, 1, 2: mean 2; deviations -1, 0, 1 -> sum of squares 2, / (3-1) = 1
    s = Descriptive.new([3.0, 1.0, 2.0])
    assert_equal 3, s.n
    assert_in_delta 2.0, s.mean
    assert_in_delta 2.0, s.median
    assert_in_delta 1.0, s.variance
    assert_in_delta 1.0, s.stddev
    assert_equal 1.0, s.min
    assert_equal 3.0, s.max
  end

  def test_even_sample_median_is_mean_of_middle_pair_after_sorting
    # run order 4, 1, 3, 2 -> sorted 1, 2, 3, 4 -> median (2 + 3) / 2 = 2.5.
    # The seed's analyser interpolated the unsorted list and printed (1 + 3) / 2 = 2.
    s = Descriptive.new([4.0, 1.0, 3.0, 2.0])
    assert_in_delta 2.5, s.median
    # mean 2.5; squares 2.25 + 0.25 + 0.25 + 2.25 = 5; / 3 = 1.6667
    assert_in_delta 5.0 / 3, s.variance, 1e-12
    assert_in_delta Math.sqrt(5.0 / 3), s.stddev, 1e-12
  end

  def test_one_sample_has_no_variance_instead_of_crashing
    s = Descriptive.new([0.5])
    assert_in_delta 0.5, s.median
    assert_nil s.variance
    assert_nil s.stddev
  end

  def test_empty_sample
    s = Descriptive.new([])
    assert_equal 0, s.n
    assert_nil s.median
    assert s.empty?
  end
end
