# frozen_string_literal: true

require_relative "../../analysis"
require_relative "../../stats/bootstrap"
require_relative "../../stats/median_interval"

module Ractorbench
  module Reports
    module Parts
      # The typed cells of a report's tables, each a figure with what makes
      # it honest (its interval and run count, its spread), and the one way
      # every format writes an interval: "[low, high]".
      module FigureCells
        module_function

        # "[1.10, 1.42]": ends with two decimals unless told; a block shows
        # each end its own way (compare's "+3.1%").
        def interval(low, high, digits: 2, &shown)
          shown ||= ->(x) { format("%.#{digits}f", x) }
          "[#{shown.call(low)}, #{shown.call(high)}]"
        end

        # "1.23×"; "-" for none.
        def ratio(value) = value.nil? ? "-" : format("%.2f×", value)

        # A speedup over serial with its 95% interval and the runs behind it;
        # idle: a run left a worker idle while another did several jobs
        # (marked "?"); baseline: the row is serial's own.
        Speedup = Struct.new(:value, :low, :high, :n, :idle, :baseline, :measured, keyword_init: true) do
          def self.of(row)
            ci = row.speedup_ci
            new(value: row.speedup, low: ci&.low, high: ci&.high, n: row.samples,
              idle: row.idle_worker_runs.to_i.positive?, baseline: row.baseline?, measured: !ci.nil?)
          end

          # "1.23×", "1.00× ?" when a worker sat idle.
          def to_s = FigureCells.ratio(value) + (idle ? " ?" : "")

          # "[1.10, 1.42]"; missing: what to say where there is no interval
          # (too few runs); serial's own row, or a row without a speedup, none.
          def interval(missing: "")
            return "" if baseline || !measured

            low ? FigureCells.interval(low, high) : missing
          end

          def known? = !low.nil?
        end

        # A median time in seconds with its spread (std dev) and the 95%
        # interval of the median (order statistics), over n runs.
        Time = Struct.new(:median, :stddev, :low, :high, :n, :measured, keyword_init: true) do
          def self.of(row, metric = "messages_time")
            s = row[metric]
            ci = row["#{metric}_ci"]
            new(median: s.median, stddev: s.stddev, low: ci&.low, high: ci&.high,
              n: s.samples.to_i, measured: !ci.nil?)
          end

          # "0.1234 ± 0.0010", "0.1234 (n=1)", "-" without a run.
          def to_s
            return "-" if n.zero?

            "#{format("%.4f", median)}#{stddev ? " ± #{format("%.4f", stddev)}" : " (n=1)"}"
          end

          # "[0.1200, 0.1300]", "n<6" below the runs an interval needs, "-" without one.
          def interval
            return "-" unless measured
            return "n<#{Stats::MedianInterval.min_samples}" unless low

            FigureCells.interval(low, high, digits: 4)
          end
        end
      end
    end
  end
end
