# frozen_string_literal: true

require "zlib"
require_relative "median_interval"
require_relative "resampled_median"
require_relative "quadrant_correlation"
require_relative "sorted"

module Ractorbench
  module Stats
    # A confidence interval for the ratio of two medians (a speedup, or one
    # Ruby against another) by the percentile bootstrap over repetitions
    # (Efron and Tibshirani 1993, ch. 13): draw each side's runs again with
    # replacement, take the ratio of the two medians, repeat, and read the
    # 2.5th and 97.5th percentiles of those ratios.
    #
    # When both sides were measured in the same repetitions (one collection:
    # every arm runs once in each shuffled block), the repetitions are drawn
    # as pairs, so that a slow minute of the machine moves both sides alike
    # instead of widening the interval; otherwise each side is drawn on its
    # own. The random generator is seeded from a label of the comparison, so
    # the same results file always gives the same interval.
    class Bootstrap
      RESAMPLES = 2000
      # From this many runs a side, resampling (paired, its cost grows with
      # the runs: a million-run file would take an hour) gives way to each
      # median's exact order-statistics interval, combined on the log scale
      # with the two medians' correlation when the sides are paired: by then
      # the two agree (docs/results/issue-11-big-report.md, "the resampling
      # cliff": at 99 pairs, widths within 3% and both covering 95% or more;
      # at 50 the order statistics are 10-14% wider).
      LARGE_SAMPLE = 100
      # The normal quantile for a 95% interval: the large-sample draws.
      Z95 = 1.959963984540054
      # Fewer runs than this a side and the resampled medians take so few
      # values that the percentiles mean little; the same floor as the
      # order-statistics interval of one median.
      MIN_SAMPLES = 6

      Interval = Struct.new(:estimate, :low, :high, :level, :paired, :n1, :n2, :draws, :reason, keyword_init: true) do
        def known? = !low.nil?

        # Draws made only when asked for (a compare's geometric mean): a
        # report of a thousand configurations never needs them.
        def draws
          made = self[:draws]
          made.respond_to?(:call) ? (self[:draws] = made.call) : made
        end
      end

      # numerator / denominator: pass {rep => value} hashes to pair by
      # repetition, or arrays to draw each side independently.
      # large_sample: runs a side from which the order-statistics interval
      # replaces resampling (Float::INFINITY: always resample).
      def self.ratio_of_medians(numerator, denominator, label:, level: 0.95, resamples: RESAMPLES, large_sample: LARGE_SAMPLE)
        new(numerator, denominator, label: label, level: level, resamples: resamples, large_sample: large_sample).interval
      end

      # pairs: see of_large_samples; {rep => value} sides pair themselves.
      def initialize(numerator, denominator, label:, level:, resamples:, large_sample: LARGE_SAMPLE, pairs: nil)
        @paired = numerator.is_a?(Hash) && denominator.is_a?(Hash) && !numerator.empty? &&
          numerator.keys.sort == denominator.keys.sort
        order = numerator.keys if @paired
        @num = values(numerator, order: order)
        @den = values(denominator, order: order)
        @pairs = pairs || ([@num, @den] if @paired)
        @label = label
        @level = level
        @resamples = resamples
        @large_sample = large_sample
      end

      # The interval from each median's order statistics, or nil when a side
      # has too few runs for it (or a time <= 0): what a caller that has both
      # sides sorted already can ask before building {rep => value} hashes.
      # pairs: both sides' values in repetition order (the same repetitions,
      # nil where a value is missing), when they were measured in pairs.
      def self.of_large_samples(numerator, denominator, label:, level: 0.95, pairs: nil)
        new(numerator, denominator, label: label, level: level, resamples: RESAMPLES, pairs: pairs).large_sample_interval
      end

      def large_sample_interval
        estimate, base, small = estimate_and_base
        large_sample(estimate, base) if estimate && small >= [@large_sample, MIN_SAMPLES].max
      end

      def interval
        estimate, base, small = estimate_and_base
        if estimate.nil? || small < MIN_SAMPLES
          reason = estimate && "need #{MIN_SAMPLES} or more runs a side for a #{(@level * 100).round}% interval of the ratio, have #{small}"
          return Interval.new(**base, reason: reason)
        end

        large = large_sample(estimate, base) if small >= @large_sample
        return large if large

        # draws stay in drawing order: independent intervals can then be
        # combined draw by draw (Comparison's geometric mean).
        draws = draw
        sorted = draws.sort
        tail = (1 - @level) / 2
        Interval.new(**base, low: percentile(sorted, tail), high: percentile(sorted, 1 - tail), draws: draws)
      end

      private

      def estimate_and_base
        # Each side sorted once: both medians and both order-statistics intervals read the same order.
        @num_sorted = @num.sort
        @den_sorted = @den.sort
        estimate = ratio(Stats.median_of_sorted(@num_sorted), Stats.median_of_sorted(@den_sorted))
        [estimate, {estimate: estimate, level: @level, paired: @paired, n1: @num.size, n2: @den.size}, [@num.size, @den.size].min]
      end

      # Each median's order-statistics interval (MedianInterval, exact
      # coverage of at least the level), its distances from the median on the
      # log scale combined as the difference of two correlated normals:
      # numerator's lower with denominator's upper for the low end, and the
      # other way round, the correlation that of the two medians over the
      # pairs (QuadrantCorrelation; 0 for independent sides). Draws for
      # combining (Comparison's geometric mean) come from the normal
      # distribution those distances describe on each side. nil when a side
      # has a time <= 0.
      def large_sample(estimate, base)
        a = MedianInterval.of_sorted(@num_sorted, level: @level)
        b = MedianInterval.of_sorted(@den_sorted, level: @level)
        return nil unless a.known? && b.known? && [a.low, b.low, a.median, b.median].all?(&:positive?)

        rho = @pairs ? QuadrantCorrelation.of(*@pairs, a.median, b.median) : 0.0
        down = apart(Math.log(a.median / a.low), Math.log(b.high / b.median), rho)
        up = apart(Math.log(a.high / a.median), Math.log(b.median / b.low), rho)
        Interval.new(**base, paired: !@pairs.nil?, low: estimate * Math.exp(-down), high: estimate * Math.exp(up),
          draws: (-> { normal_draws(estimate, down / Z95, up / Z95) } if (@level - 0.95).abs < 1e-9))
      end

      # The spread of x - y from the spreads of x and y and their correlation.
      def apart(x, y, rho) = Math.sqrt([x * x + y * y - 2 * rho * x * y, 0.0].max)

      def normal_draws(estimate, sigma_down, sigma_up)
        rng = Random.new(Zlib.crc32(@label.to_s))
        Array.new(@resamples) do
          z = Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)
          estimate * Math.exp(z * (z.negative? ? sigma_down : sigma_up))
        end
      end

      # Independent sides draw each resample's median from its distribution
      # (ResampledMedian), with no resample built; paired sides draw the
      # repetitions, since one pick decides both medians.
      def draw
        rng = Random.new(Zlib.crc32(@label.to_s))
        return paired_draws(rng) if @paired

        num = ResampledMedian.new(@num_sorted)
        den = ResampledMedian.new(@den_sorted)
        Array.new(@resamples) { ratio(num.draw(rng), den.draw(rng)) }.compact
      end

      # Each side's runs replaced by their ranks once, so that a resample is
      # gathered and sorted as Integers (values_at, sort!) and only its
      # median looked up: half the time of sorting Floats, the same draws.
      def paired_draws(rng)
        n = @num.size
        num_ranks = ranks(@num)
        den_ranks = ranks(@den)
        Array.new(@resamples) do
          picks = Array.new(n) { rng.rand(n) }
          ratio(median_of_ranks(num_ranks.values_at(*picks).sort!, @num_sorted),
            median_of_ranks(den_ranks.values_at(*picks).sort!, @den_sorted))
        end.compact
      end

      # Position of each run in its side's sorted order (ties in run order).
      def ranks(side)
        ranks = Array.new(side.size)
        (0...side.size).sort_by { |i| side[i] }.each_with_index { |run, rank| ranks[run] = rank }
        ranks
      end

      def median_of_ranks(sorted_ranks, sorted)
        n = sorted_ranks.size
        n.odd? ? sorted[sorted_ranks[n / 2]] : (sorted[sorted_ranks[n / 2 - 1]] + sorted[sorted_ranks[n / 2]]) / 2
      end

      def values(side, order: nil)
        return side.map(&:to_f) unless side.is_a?(Hash)

        (order || side.keys.sort_by(&:to_s)).map { |k| side[k].to_f }
      end

      def ratio(a, b)
        (a && b&.positive?) ? a / b : nil
      end

      # R's quantile type 7 (its default): linear between order statistics.
      def percentile(sorted, q)
        h = (sorted.size - 1) * q
        lo = sorted[h.floor]
        hi = sorted[h.ceil]
        lo + (h - h.floor) * (hi - lo)
      end
    end
  end
end
