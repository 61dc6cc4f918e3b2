# frozen_string_literal: true

module Ractorbench
  module Stats
    # The mean of ratios that treats 2x faster and 2x slower as cancelling
    # out (the arithmetic mean would call that +25%); benchstat's summary row.
    module GeometricMean
      module_function

      # nil when empty or when a value is not positive (no logarithm).
      def of(values)
        values = values.compact
        return nil if values.empty? || values.any? { |v| !v.positive? }

        Math.exp(values.sum { |v| Math.log(v) } / values.size)
      end
    end
  end
end
