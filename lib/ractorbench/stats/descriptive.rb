# frozen_string_literal: true

require_relative "sorted"
require_relative "string_keys"

module Ractorbench
  module Stats
    # Descriptive statistics of one sample. The median sorts first (the
    # seed's analyser took the middle of the unsorted list).
    class Descriptive
      # The figures without the sample, as a row keeps them: read by method
      # (figures.median); to_h has the string keys the JSON report prints.
      Figures = Struct.new(:samples, :mean, :median, :variance, :stddev, :min, :max, keyword_init: true) do
        include StringKeys
      end

      attr_reader :n, :mean, :median, :min, :max

      # sorted: the values already as Stats.sorted gives them, when the caller
      # has them (a report asks several questions of each sample).
      def initialize(values, sorted: nil)
        # A sample it sorted itself is not kept (a million runs' worth of
        # them would be), the caller's values are: the variance is worked out
        # from them when asked for, which most figures of a big file never are.
        @sorted = sorted
        @values = values unless sorted
        sorted ||= Stats.sorted(values)
        @n = sorted.size
        return if @n.zero?

        @min = sorted.first
        @max = sorted.last
        @mean = sorted.sum / @n
        @median = Stats.median_of_sorted(sorted)
      end

      # Bessel's correction (n - 1), as in the seed's analyser; undefined for one sample.
      def variance
        return @variance if defined?(@variance)

        @variance = @n.zero? ? nil : variance_of(@sorted || Stats.sorted(@values))
      end

      def stddev = variance && Math.sqrt(variance)

      def empty?
        n.zero?
      end

      # Standard deviation relative to the mean; nil when it cannot be known.
      def relative_spread
        (stddev && mean&.positive?) ? stddev / mean : nil
      end

      def figures = Figures.new(samples: n, mean: mean, median: median, variance: variance, stddev: stddev, min: min, max: max)

      def to_h = figures.to_h

      private

      def variance_of(sorted)
        return nil if @n < 2

        mean = @mean
        sorted.sum { |x| (d = x - mean) * d } / (@n - 1)
      end
    end
  end
end
