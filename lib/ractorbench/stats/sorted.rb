# frozen_string_literal: true

module Ractorbench
  module Stats
    # A sample as the statistics read it: nils left out, Floats, in order.
    def self.sorted(values)
      sample = values.compact
      # Run times are Floats already: checked in C, not converted one by one.
      sample.map!(&:to_f) unless sample.all?(Float)
      sample.sort!
    end

    # The median of a sample in order; nil for none.
    def self.median_of_sorted(sorted)
      return nil if sorted.empty?

      half = sorted.size / 2
      sorted.size.odd? ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2.0
    end
  end
end
