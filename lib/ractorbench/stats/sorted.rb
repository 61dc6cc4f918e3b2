# frozen_string_literal: true

module Ractorbench
  module Stats
    # A sample as the statistics read it: nils left out, Floats, in order.
    def self.sorted(values)
      sample = values.compact
      # Run times are Floats already: checked in C, not converted one by one.
      return sample.sort! if sample.all?(Float)
      # Counts sort three times faster as Integers, and to_f keeps their order.
      return sample.sort!.map!(&:to_f) if sample.all?(Integer)

      sample.map!(&:to_f).sort!
    end

    # The median of a sample in order; nil for none.
    def self.median_of_sorted(sorted)
      return nil if sorted.empty?

      half = sorted.size / 2
      sorted.size.odd? ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2.0
    end
  end
end
