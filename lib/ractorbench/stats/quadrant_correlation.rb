# frozen_string_literal: true

module Ractorbench
  module Stats
    # Blomqvist's quadrant correlation (Ann. Math. Stat. 21, 1950): the share
    # of pairs on the same side of both medians less the share on opposite
    # sides. It is the large-sample correlation of two medians drawn from the
    # same pairs (Bahadur's representation of a sample quantile; Serfling,
    # Approximation Theorems of Mathematical Statistics, 1980, 2.3.3): what
    # lets each median's own interval be combined into an interval of their
    # ratio without losing the pairing. When a slow minute of the machine
    # slows both sides of a repetition, it is near 1 and the ratio is much
    # surer than either median.
    module QuadrantCorrelation
      # xs and ys in pair order (nil for a missing value: that pair left out);
      # the medians of the values given.
      def self.of(xs, ys, x_median, y_median)
        pairs = 0
        sum = 0
        xs.each_with_index do |x, i|
          y = ys[i]
          next if x.nil? || y.nil?

          pairs += 1
          sum += (x <=> x_median) * (y <=> y_median)
        end
        pairs.zero? ? 0.0 : sum.fdiv(pairs)
      end
    end
  end
end
