# frozen_string_literal: true

require "zlib"

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
      # Fewer runs than this a side and the resampled medians take so few
      # values that the percentiles mean little; the same floor as the
      # order-statistics interval of one median.
      MIN_SAMPLES = 6

      Interval = Struct.new(:estimate, :low, :high, :level, :paired, :n1, :n2, :draws, :reason, keyword_init: true) do
        def known? = !low.nil?
      end

      # numerator / denominator: pass {rep => value} hashes to pair by
      # repetition, or arrays to draw each side independently.
      def self.ratio_of_medians(numerator, denominator, label:, level: 0.95, resamples: RESAMPLES)
        new(numerator, denominator, label: label, level: level, resamples: resamples).interval
      end

      def initialize(numerator, denominator, label:, level:, resamples:)
        @paired = numerator.is_a?(Hash) && denominator.is_a?(Hash) && !numerator.empty? &&
          numerator.keys.sort == denominator.keys.sort
        order = numerator.keys if @paired
        @num = values(numerator, order: order)
        @den = values(denominator, order: order)
        @label = label
        @level = level
        @resamples = resamples
      end

      def interval
        estimate = ratio(median(@num), median(@den))
        base = {estimate: estimate, level: @level, paired: @paired, n1: @num.size, n2: @den.size}
        small = [@num.size, @den.size].min
        if estimate.nil? || small < MIN_SAMPLES
          reason = estimate && "need #{MIN_SAMPLES} or more runs a side for a #{(@level * 100).round}% interval of the ratio, have #{small}"
          return Interval.new(**base, reason: reason)
        end

        # draws stay in drawing order: independent intervals can then be
        # combined draw by draw (Comparison's geometric mean).
        draws = draw
        sorted = draws.sort
        tail = (1 - @level) / 2
        Interval.new(**base, low: percentile(sorted, tail), high: percentile(sorted, 1 - tail), draws: draws)
      end

      private

      def draw
        rng = Random.new(Zlib.crc32(@label.to_s))
        Array.new(@resamples) do
          if @paired
            picks = Array.new(@num.size) { rng.rand(@num.size) }
            ratio(median(picks.map { |i| @num[i] }), median(picks.map { |i| @den[i] }))
          else
            ratio(median(Array.new(@num.size) { @num[rng.rand(@num.size)] }),
              median(Array.new(@den.size) { @den[rng.rand(@den.size)] }))
          end
        end.compact
      end

      def values(side, order: nil)
        return side.map(&:to_f) unless side.is_a?(Hash)

        (order || side.keys.sort_by(&:to_s)).map { |k| side[k].to_f }
      end

      def ratio(a, b)
        (a && b&.positive?) ? a / b : nil
      end

      def median(values)
        return nil if values.empty?

        sorted = values.sort
        half = sorted.size / 2
        sorted.size.odd? ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2.0
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
