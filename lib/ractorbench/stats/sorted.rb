# frozen_string_literal: true

module Ractorbench
  module Stats
    # A sample as the statistics read it: nils left out, Floats, in order.
    def self.sorted(values) = values.compact.map(&:to_f).sort

    # The median of a sample in order; nil for none.
    def self.median_of_sorted(sorted)
      return nil if sorted.empty?

      half = sorted.size / 2
      sorted.size.odd? ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2.0
    end
  end
end
