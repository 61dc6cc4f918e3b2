# frozen_string_literal: true

require "test_helper"
require "ractorbench/stats/median_interval"
require "ractorbench/stats/mann_whitney"
require "ractorbench/stats/holm"
require "ractorbench/stats/geometric_mean"
require "ractorbench/stats/outliers"
require "ractorbench/stats/bootstrap"

# Reference values come from R 4.2.2 (Rscript on this machine) unless a
# test says otherwise; each test shows the R expression that produced them.
class StatsTest < Minitest::Test
  include Ractorbench::Stats

  # --- median interval (order statistics) ---------------------------------

  def test_median_interval_orders_match_r_qbinom
    # R: for (n in c(6,10,20,50)) { L <- qbinom(0.025, n, 0.5); cat(n, L, n-L+1, 1-2*pbinom(L-1, n, 0.5)) }
    {6 => [1, 0.96875], 10 => [2, 0.978515625], 20 => [6, 0.958610534667969], 50 => [18, 0.967160862435731]}.each do |n, (k, coverage)|
      order, actual = MedianInterval.order(n, 0.95)
      assert_equal k, order, "n=#{n}"
      assert_in_delta coverage, actual, 1e-12, "n=#{n}"
    end
  end

  def test_median_interval_of_a_sample
    # R: x <- c(12.1, 11.8, 12.6, 13.0, 11.9, 12.2, 12.4, 15.9, 12.0, 12.3); s <- sort(x)
    #    median(x) = 12.25; s[qbinom(0.025, 10, 0.5)] = 11.9; s[10 - 2 + 1] = 13
    ci = MedianInterval.for([12.1, 11.8, 12.6, 13.0, 11.9, 12.2, 12.4, 15.9, 12.0, 12.3])
    assert_in_delta 12.25, ci.median
    assert_in_delta 11.9, ci.low
    assert_in_delta 13.0, ci.high
    assert_in_delta 0.978515625, ci.confidence
  end

  def test_median_interval_needs_six_samples_as_benchstat_says
    # benchstat (golang.org/x/perf benchmath TestSummaryNone): {-10,2,3,4,5,6} at 0.95 gives
    # center 3.5, [-10, 6], confidence 1 - 0.03125; and "need >= 6 samples" below that.
    ci = MedianInterval.for([-10, 2, 3, 4, 5, 6])
    assert_equal [3.5, -10.0, 6.0], [ci.median, ci.low, ci.high]
    assert_in_delta 0.96875, ci.confidence
    assert_equal 6, MedianInterval.min_samples(0.95)
    assert_equal 8, MedianInterval.min_samples(0.99) # benchmath: "need >= 8 samples" at 0.99

    small = MedianInterval.for([1.0, 2.0, 3.0, 4.0, 5.0])
    refute small.known?
    assert_equal 3.0, small.median
    assert_match(/need 6 or more samples for a 95% interval of the median, have 5/, small.reason)
  end

  # --- Mann-Whitney U --------------------------------------------------------

  def test_mann_whitney_exact_without_ties
    # R: wilcox.test(c(0.8,0.83,1.89,1.04,1.45,1.38,1.91,1.64,0.73,1.46), c(1.15,0.88,0.90,0.74,1.21))
    #    W = 35, p-value = 0.254412254412254 (exact)
    r = MannWhitney.test([0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46], [1.15, 0.88, 0.90, 0.74, 1.21])
    assert_equal :exact, r.method
    assert_in_delta 35, r.u
    assert_in_delta 0.254412254412254, r.p, 1e-12
  end

  def test_mann_whitney_fully_separated_samples
    # R: wilcox.test(c(1.1,2.2,3.3,4.4), c(5.5,6.6,7.7,8.8)) -> W = 0, p = 0.0285714285714286 (= 2/70),
    # also benchstat's uTestMinP[4].
    r = MannWhitney.test([1.1, 2.2, 3.3, 4.4], [5.5, 6.6, 7.7, 8.8])
    assert_in_delta 0.0285714285714286, r.p, 1e-12
    assert_in_delta 0.0285714285714286, MannWhitney.min_p(4, 4), 1e-12
    assert_in_delta 0.1, MannWhitney.min_p(3, 3), 1e-12 # benchstat: 3 a side can never reach 0.05
  end

  # Ranks and U by their definitions, pair by pair, on samples of every
  # size the reports meet, with many ties (values rounded) and -0.0 beside 0.0.
  def test_mann_whitney_ranks_and_u_match_their_definitions
    rng = Random.new(11)
    [[1, 1], [3, 7], [49, 49], [60, 45], [400, 300]].each do |m, n|
      x = Array.new(m) { (rng.rand * 20).round / 2.0 }
      y = Array.new(n) { (rng.rand * 20).round / 2.0 - 1 }
      x[0] = -0.0
      y[0] = 0.0
      all = x + y
      ranks = all.map { |v| 1 + all.count { |w| w < v } + (all.count { |w| w == v } - 1) / 2.0 }
      assert_equal ranks, MannWhitney.average_ranks(all), "ranks of #{m} + #{n}"
      u = x.sum { |xi| y.count { |yj| xi > yj } + y.count { |yj| xi == yj } / 2.0 }
      assert_in_delta u, MannWhitney.test(x, y).u, 1e-9, "U of #{m} + #{n}"
    end
  end

  # The MAD from a sorted sample by bisection is the median of every
  # deviation sorted, about the median or any other centre, ties and all.
  def test_mad_of_a_sorted_sample_is_that_of_its_sorted_deviations
    rng = Random.new(3)
    2000.times do
      sample = Array.new(rng.rand(1..40)) { (rng.rand < 0.3) ? rng.rand(5) / 2.0 : rng.rand * 10 }.sort
      median = Ractorbench::Stats.median_of_sorted(sample)
      [median, sample.sample(random: rng), median + 0.25].each do |centre|
        deviations = sample.map { |v| (v - centre).abs }.sort
        assert_equal Ractorbench::Stats.median_of_sorted(deviations), Ractorbench::Stats::Outliers.mad_of_sorted(sample, centre), sample.inspect
      end
    end
  end

  def test_a_sorted_sample_is_floats_in_order_whatever_numbers_it_had
    assert_equal [1.0, 2.0, 3.0], Ractorbench::Stats.sorted([3, nil, 1, 2])
    assert_equal [1.0, 2.5, 3.0], Ractorbench::Stats.sorted([3, 2.5, nil, 1])
    assert_equal [-0.5, 2.0], Ractorbench::Stats.sorted([2.0, -0.5])
    assert(Ractorbench::Stats.sorted([2**60 + 1, 2**60, 1]).all?(Float))
  end

  def test_mann_whitney_normal_approximation_with_ties
    # R: wilcox.test(c(1.83,0.50,1.62,2.48,1.68,1.88,1.55,3.06,1.30),
    #                c(0.878,0.647,0.598,2.05,1.06,1.29,1.06,3.14,1.29)) -> W = 58, p = 0.132919458185319
    r = MannWhitney.test([1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30],
      [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29])
    assert_equal :normal, r.method
    assert_in_delta 58, r.u
    assert_in_delta 0.132919458185319, r.p, 1e-12

    # R: wilcox.test(c(1,-1,-1,-1), c(-1,1,1,1)) -> W = 4, p = 0.247061525091658
    assert_in_delta 0.247061525091658, MannWhitney.test([1, -1, -1, -1], [-1, 1, 1, 1]).p, 1e-12
  end

  def test_mann_whitney_large_samples_use_the_normal_approximation
    # R: set.seed(7); u <- round(rnorm(60, 10, 1), 3); v <- round(rnorm(55, 10.4, 1), 3); wilcox.test(u, v)
    #    -> W = 1363, p = 0.108691673135698
    u = [12.287, 8.803, 9.306, 9.588, 9.029, 9.053, 10.748, 9.883, 10.153, 12.19, 10.357, 12.717, 12.281, 10.324,
      11.896, 10.468, 9.106, 9.693, 9.995, 10.988, 10.84, 10.705, 11.306, 8.612, 11.273, 10.184, 10.752, 10.592, 9.017,
      9.724, 9.129, 10.719, 10.111, 9.922, 9.58, 9.438, 10.998, 8.895, 9.858, 10.315, 11.219, 9.301, 9.715, 8.688,
      9.609, 9.598, 11.351, 10.591, 10.101, 10.931, 9.737, 9.992, 10.367, 11.707, 10.724, 10.481, 8.432, 10.318,
      10.166, 9.1]
    v = [10.476, 10.559, 10.944, 11.105, 10.719, 11.509, 11.169, 11.553, 11.661, 11.101, 10.833, 9.477, 9.784, 9.533,
      8.76, 9.074, 9.511, 9.842, 10.338, 12.823, 10.743, 10.404, 10.429, 10.007, 9.607, 10.088, 10.054, 10.095, 8.614,
      10.987, 12.036, 9.755, 11.019, 10.636, 11.247, 9.826, 11.518, 8.86, 9.962, 10.249, 10.919, 10.988, 10.321,
      9.226, 10.709, 8.796, 11.391, 11.423, 11.24, 10.52, 9.974, 10.859, 11.045, 11.012, 9.511]
    r = MannWhitney.test(u, v)
    assert_equal :normal, r.method
    assert_in_delta 1363, r.u
    assert_in_delta 0.108691673135698, r.p, 1e-12
  end

  def test_mann_whitney_identical_values_cannot_differ
    assert_equal 1.0, MannWhitney.test([1.0] * 4, [1.0] * 4).p # benchstat: "all samples are equal", p = 1
  end

  # --- Holm, geometric mean, outliers ----------------------------------------

  def test_holm_matches_r_p_adjust
    # R: p.adjust(c(0.01, 0.04, 0.03, 0.005, 0.20, 0.04), "holm") -> 0.05 0.12 0.12 0.03 0.20 0.12
    adjusted = Holm.adjust([0.01, 0.04, 0.03, 0.005, 0.20, 0.04])
    [0.05, 0.12, 0.12, 0.03, 0.20, 0.12].zip(adjusted).each { |want, got| assert_in_delta want, got, 1e-12 }
    assert_equal [nil, 0.5], Holm.adjust([nil, 0.5]) # a missing p is not a comparison
  end

  def test_geometric_mean
    # R: exp(mean(log(c(1.2, 0.8, 1.5, 1.0)))) -> 1.09544511501033 (= 1.44 ** 0.25 by hand)
    assert_in_delta 1.09544511501033, GeometricMean.of([1.2, 0.8, 1.5, 1.0]), 1e-12
    assert_in_delta 1.0, GeometricMean.of([2.0, 0.5]), 1e-12 # twice as fast and twice as slow cancel out
    assert_nil GeometricMean.of([1.0, 0.0])
  end

  def test_modified_z_scores_match_r
    # R: y <- c(0.5, 0.30, 0.29, 0.31, 0.30); 0.6745 * (y - median(y)) / mad(y, constant = 1)
    #    -> 13.4900 0 -0.6745 0.6745 0
    [13.49, 0, -0.6745, 0.6745, 0].zip(Outliers.modified_z_scores([0.5, 0.30, 0.29, 0.31, 0.30])).each do |want, got|
      assert_in_delta want, got, 1e-9
    end
    assert_equal [0], Outliers.indices([0.5, 0.30, 0.29, 0.31, 0.30]) # hyperfine's test vector: one outlier

    # R: x as in test_median_interval_of_a_sample -> only 15.9 scores above 3.5 (8.206416666666673)
    x = [12.1, 11.8, 12.6, 13.0, 11.9, 12.2, 12.4, 15.9, 12.0, 12.3]
    assert_in_delta 8.206416666666673, Outliers.modified_z_scores(x)[7], 1e-9
    assert_equal [7], Outliers.indices(x)
  end

  def test_outliers_when_most_values_are_equal
    # hyperfine's test_detect_outliers_if_mad_becomes_0: seven 10s and one 100 -> one outlier
    assert_equal [7], Outliers.indices([10.0] * 7 + [100.0])
    assert_empty Outliers.indices([1000.0, 0.0]) # hyperfine: two values, no outlier
  end

  # --- bootstrap interval of a ratio of medians --------------------------------

  A = [0.0412, 0.0398, 0.0431, 0.0405, 0.0420, 0.0416, 0.0409, 0.0445, 0.0401, 0.0413].freeze
  B = [0.0501, 0.0489, 0.0512, 0.0478, 0.0530, 0.0495, 0.0507, 0.0521, 0.0486, 0.0499].freeze

  def test_bootstrap_ratio_interval_agrees_with_r_boot
    # R (boot 1.3-28): d <- data.frame(v = c(A, B), g = rep(1:2, each = 10)); set.seed(1)
    #   r <- boot(d, function(d, i) { s <- d[i, ]; median(s$v[s$g == 2]) / median(s$v[s$g == 1]) },
    #             R = 20000, strata = d$g); boot.ci(r, type = "perc")  -> t0 1.212121212, [1.173913043, 1.251851852]
    # Different random draws, so the bounds agree to within a little Monte Carlo error, not exactly.
    ci = Bootstrap.ratio_of_medians(B, A, label: "r-reference", resamples: 20_000)
    assert_in_delta 1.212121212, ci.estimate, 1e-9
    assert_in_delta 1.173913043, ci.low, 0.005
    assert_in_delta 1.251851852, ci.high, 0.005
    refute ci.paired
  end

  def test_bootstrap_is_reproducible_and_pairs_repetitions
    a = A.each_with_index.to_h { |v, i| [i + 1, v] }
    b = B.each_with_index.to_h { |v, i| [i + 1, v] }
    first = Bootstrap.ratio_of_medians(b, a, label: "same label")
    again = Bootstrap.ratio_of_medians(b, a, label: "same label")
    assert first.paired
    assert_equal [first.low, first.high], [again.low, again.high]
    assert_operator first.low, :<, first.estimate
    assert_operator first.high, :>, first.estimate

    # Every B run 20% slower than its own repetition's A run: paired draws see exactly 1.2.
    exact = Bootstrap.ratio_of_medians(a.transform_values { |v| v * 1.2 }, a, label: "pairs")
    assert_in_delta 1.2, exact.low, 1e-12
    assert_in_delta 1.2, exact.high, 1e-12
  end

  def test_bootstrap_says_when_there_are_too_few_runs
    ci = Bootstrap.ratio_of_medians([1.0, 1.1, 1.2], [1.0, 1.05, 1.1], label: "few")
    refute ci.known?
    assert_in_delta 1.1 / 1.05, ci.estimate
    assert_match(/need 6 or more runs a side/, ci.reason)
  end

  # From 100 runs a side the interval comes from each median's exact
  # order-statistics interval, not from resampling (whose cost grows with
  # the runs); on the same samples the two agree.
  def test_many_runs_take_the_order_statistics_interval_which_agrees_with_resampling
    rng = Random.new(7)
    lognormal = ->(median) { median * Math.exp(0.1 * Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)) }
    slow = Array.new(300) { lognormal.call(0.03) }
    fast = Array.new(300) { lognormal.call(0.02) }
    large = Bootstrap.ratio_of_medians(slow, fast, label: "many")
    resampled = Bootstrap.ratio_of_medians(slow, fast, label: "many", large_sample: Float::INFINITY)
    refute large.paired
    assert_in_delta resampled.estimate, large.estimate, 1e-12
    assert_operator large.low, :<, 1.5
    assert_operator large.high, :>, 1.5
    assert_in_delta 1.0, (large.high - large.low) / (resampled.high - resampled.low), 0.35
    assert_in_delta resampled.low, large.low, 0.02
    assert_in_delta resampled.high, large.high, 0.02
    # Draws for combining intervals follow the same interval.
    draws = large.draws.sort
    assert_equal Bootstrap::RESAMPLES, draws.size
    assert_in_delta large.low, draws[(draws.size * 0.025).floor], 0.02
    assert_in_delta large.high, draws[(draws.size * 0.975).floor], 0.02
    # Below 100 runs a side: resampling, paired when the sides are by repetition.
    assert Bootstrap.ratio_of_medians(slow.first(99), fast.first(99), label: "few").draws.is_a?(Array)
  end

  # Pairs whose repetitions share a slow or fast minute of the machine: from
  # 100 pairs the interval keeps the pairing through the medians' quadrant
  # correlation, and then agrees with resampling the pairs; without it, it
  # was 75% wider (docs/results/issue-11-big-report.md, "the resampling cliff").
  def test_many_pairs_sharing_a_drift_keep_the_pairing
    rng = Random.new(5)
    normal = -> { Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand) }
    drift = Array.new(120) { 0.15 * normal.call }
    slow = (1..120).to_h { |rep| [rep, 0.03 * Math.exp(drift[rep - 1] + 0.05 * normal.call)] }
    fast = (1..120).to_h { |rep| [rep, 0.02 * Math.exp(drift[rep - 1] + 0.05 * normal.call)] }
    paired = Bootstrap.ratio_of_medians(slow, fast, label: "drift")
    resampled = Bootstrap.ratio_of_medians(slow, fast, label: "drift", large_sample: Float::INFINITY)
    independent = Bootstrap.ratio_of_medians(slow.values, fast.values, label: "drift")
    assert paired.paired
    refute independent.paired
    medians = [slow, fast].map { |side| Ractorbench::Stats.median_of_sorted(side.values.sort) }
    assert_operator QuadrantCorrelation.of(slow.values, fast.values, *medians), :>, 0.5
    width = ->(ci) { Math.log(ci.high / ci.low) }
    assert_in_delta 1.0, width.call(paired) / width.call(resampled), 0.2
    assert_operator width.call(independent), :>, 1.5 * width.call(paired)
    assert_operator paired.low, :<, 1.5
    assert_operator paired.high, :>, 1.5
  end

  # Blomqvist's beta by its definition: concordant minus discordant pairs
  # about the medians, over the pairs; a value at its median counts 0 and a
  # missing one drops the pair.
  def test_quadrant_correlation
    assert_in_delta 1.0, QuadrantCorrelation.of([1, 2, 4, 5], [10, 20, 40, 50], 3, 30)
    assert_in_delta(-1.0, QuadrantCorrelation.of([1, 2, 4, 5], [50, 40, 20, 10], 3, 30))
    assert_in_delta 0.0, QuadrantCorrelation.of([1, 2, 4, 5], [10, 50, 20, 40], 3, 30)
    assert_in_delta 0.4, QuadrantCorrelation.of([1, 2, 3, 4, 5, nil], [10, 20, 30, 50, 25, 1], 3, 30)
  end

  # A report asks for the large-sample interval with each side sorted
  # already (Analysis::Uncertainty): the same interval as from the pairs.
  def test_the_large_sample_interval_from_sorted_sides_is_the_one_from_pairs
    rng = Random.new(11)
    slow = (1..150).to_h { |rep| [rep, 0.03 + rng.rand / 100] }
    fast = (1..150).to_h { |rep| [rep, 0.02 + rng.rand / 100] }
    from_pairs = Bootstrap.ratio_of_medians(slow, fast, label: "s")
    from_sorted = Bootstrap.of_large_samples(slow.values.sort, fast.values.sort, label: "s", pairs: [slow.values, fast.values])
    assert from_sorted.paired
    %i[estimate low high level paired n1 n2].each { |k| assert_equal from_pairs[k], from_sorted[k], k }
    assert_equal from_pairs.draws, from_sorted.draws
    assert_nil Bootstrap.of_large_samples(slow.values.first(99).sort, fast.values.sort, label: "s"), "too few a side"
    assert_nil Bootstrap.of_large_samples([0.0] * 100, fast.values.sort, label: "s"), "a time of 0"
  end

  # Outliers.none? reads the two ends of the sorted sample; it must say what
  # scoring every value says, at the threshold's edge and with a MAD of 0.
  def test_no_outliers_from_the_ends_agrees_with_scoring_every_value
    rng = Random.new(5)
    samples = Array.new(300) do
      base = Array.new(rng.rand(1..40)) { 1.0 + rng.rand }
      base + Array.new(rng.rand(0..2)) { [1.0, 1.5, 3.0 + rng.rand * 3, -rng.rand].sample(random: rng) }
    end
    samples += [[10.0] * 7 + [100.0], [10.0] * 8, [1000.0, 0.0], [1.0], [1.0, 2.0, 3.0, 4.0, 100.0]]
    outcomes = samples.map do |values|
      none = Outliers.none?(values.sort)
      assert_equal Outliers.indices(values).empty?, none, values.inspect
      none
    end
    assert_includes outcomes, true
    assert_includes outcomes, false
  end
end
