# frozen_string_literal: true

require_relative "sorted"

module Ractorbench
  module Stats
    # A distribution-free confidence interval for the median from order
    # statistics (Lehmann, Nonparametrics, 1975; the method behind benchstat's
    # default summary): the population median lies below exactly k of n
    # samples with probability Binomial(n, 1/2)(k), so [x(k), x(n-k+1)]
    # covers it with probability 1 - 2 P(Binomial <= k-1). We take the
    # narrowest symmetric pair whose coverage reaches the level asked for;
    # benchstat may shift such a pair one place left, we keep it symmetric so
    # that R's qbinom gives the same k. Below 6 samples no pair reaches 95%:
    # the interval is then nil and #reason says how many samples it needs.
    class MedianInterval
      attr_reader :n, :median, :low, :high, :confidence, :level

      def self.for(values, level: 0.95) = new(values, level: level)

      # From values already without nils, as Floats, in order (Stats.sorted):
      # a report of a million runs asks several questions of each sample.
      def self.of_sorted(sorted, level: 0.95) = new(nil, level: level, sorted: sorted)

      # The fewest samples for which any interval reaches the level.
      def self.min_samples(level = 0.95)
        (1..10_000).find { |n| order(n, level) }
      end

      # The 1-based order statistic k of the interval [x(k), x(n-k+1)] and its
      # exact coverage, or nil when even [x(1), x(n)] covers less than level.
      # Integer arithmetic: exact for any n (2**n does not overflow in Ruby).
      def self.order(n, level)
        @orders ||= {}
        return @orders[[n, level]] if @orders.key?([n, level])

        @orders[[n, level]] = exact_order(n, level)
      end

      # A report of a million runs asks for the same few n a thousand times.
      def self.exact_order(n, level)
        tail = (1 - level) / 2.0
        total = 2**n
        below = 0 # count of outcomes with Binomial <= k-1
        choose = 1 # C(n, k-1)
        k = 0
        (0..(n / 2)).each do |j|
          break if Rational(below + choose, total) >= tail

          below += choose
          choose = choose * (n - j) / (j + 1)
          k = j + 1
        end
        k.zero? ? nil : [k, 1 - 2 * Rational(below, total)]
      end

      def initialize(values, level: 0.95, sorted: nil)
        sorted ||= Stats.sorted(values)
        @n = sorted.size
        @level = level
        return if @n.zero?

        @median = Stats.median_of_sorted(sorted)
        k, coverage = self.class.order(@n, level)
        return unless k

        @low = sorted[k - 1]
        @high = sorted[@n - k]
        @confidence = coverage.to_f
      end

      def known? = !low.nil?

      def reason
        return nil if known?

        "need #{self.class.min_samples(level)} or more samples for a #{(level * 100).round}% interval of the median, have #{n}"
      end

      # The larger distance from the median to either end, relative to the
      # median: the "± x%" benchstat prints.
      def relative_half_width
        return nil unless known? && median.positive?

        [median - low, high - median].max / median
      end

      def to_h
        {"level" => level, "low" => low, "high" => high, "confidence" => confidence, "samples" => n}
      end
    end
  end
end
