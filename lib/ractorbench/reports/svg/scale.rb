# frozen_string_literal: true

module Ractorbench
  module Reports
    module Svg
      # Maps data values to pixels along one axis, with round tick values.
      class Scale
        attr_reader :min, :max

        def initialize(min, max, from, to)
          @min = min.to_f
          @max = (max.to_f > @min) ? max.to_f : @min + 1
          @from = from
          @to = to
        end

        # A scale from 0 (or min) to a round number above max.
        def self.nice(min, max, from, to, count: 5)
          step = step(max - min, count)
          new((min / step).floor * step, (max / step).ceil * step, from, to)
        end

        def self.step(span, count)
          return 1.0 unless span.positive?

          raw = span.to_f / count
          magnitude = 10**Math.log10(raw).floor
          [1, 2, 2.5, 5, 10].map { |m| m * magnitude }.find { |s| s >= raw }
        end

        def call(value) = @from + (value.to_f - min) / (max - min) * (@to - @from)

        def ticks(count = 5)
          step = self.class.step(max - min, count)
          first = (min / step).ceil
          last = (max / step).floor
          (first..last).map { |i| (i * step).round(12) }
        end

        def self.label(value)
          return "0" if value.zero?

          (value.abs >= 100 || value == value.round) ? value.round.to_s : format("%.3g", value)
        end
      end
    end
  end
end
