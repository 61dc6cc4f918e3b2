# frozen_string_literal: true

module Ractorbench
  module Reports
    module Parts
      # Durations (and sizes) for people: four significant digits in a unit
      # that fits (3.231ms rather than 0.003231).
      module Reports::Parts::Units
        module_function

        def duration(seconds, space: "")
          return "-" if seconds.nil?

          value, unit = if seconds >= 1 then [seconds, "s"]
          elsif seconds >= 1e-3 then [seconds * 1e3, "ms"]
          else [seconds * 1e6, "µs"]
          end
          digits = [3 - Math.log10(value.abs.clamp(1, 999)).floor, 0].max
          format("%.#{digits}f%s%s", value, space, unit)
        end

        # An interval in the unit of its median, "[3.160, 3.319]".
        def duration_range(median, low, high)
          scale = if median >= 1 then 1
          elsif median >= 1e-3 then 1e3
          else 1e6
          end
          digits = [3 - Math.log10((median * scale).abs.clamp(1, 999)).floor, 0].max
          format("[%.#{digits}f, %.#{digits}f]", low * scale, high * scale)
        end

        # Three significant digits, for a narrow column: "96.9ms", "1.41s".
        def short_duration(seconds)
          return "-" if seconds.nil?

          value, unit, = scaled(seconds)
          format("%.#{digits3(value)}f%s", value, unit)
        end

        # An interval in its median's unit, three significant digits: "[90.1, 99.2]".
        def short_range(median, low, high)
          _, _, scale = scaled(median)
          digits = digits3(median * scale)
          format("[%.#{digits}f, %.#{digits}f]", low * scale, high * scale)
        end

        def scaled(seconds)
          if seconds >= 1 then [seconds, "s", 1]
          elsif seconds >= 1e-3 then [seconds * 1e3, "ms", 1e3]
          else [seconds * 1e6, "µs", 1e6]
          end
        end

        def digits3(value) = [2 - Math.log10(value.abs.clamp(1, 999)).floor, 0].max

        # A size for people: "512 B", "48 KB", "1.5 MB" (1 KB = 1024 B).
        def bytes(count)
          return "#{count} B" if count < 1024
          return "#{(count / 1024.0).round} KB" if count < 1024 * 1024

          format("%.1f MB", count / 1024.0 / 1024)
        end
      end
    end
  end
end
