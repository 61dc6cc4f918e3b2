# frozen_string_literal: true

require_relative "../summary"
require_relative "../../analysis/rows"
require_relative "../parts/figure_cells"
require_relative "../parts/notes"
require_relative "../parts/disturbance"
require_relative "../../analysis"

module Ractorbench
  module Reports
    # `report --by ruby|machine`'s formats (Analysis::SideBySide), one file
    # each, registered as `of: :sides`; this file is what they share.
    module Sides
      # One cell of the side-by-side table: a model's speedup over serial on
      # one side with its interval or spread and its n; serial's (or, for a
      # workload without serial, the model's) median time.
      module SpeedupCells
        LEGEND = "speedup: serial's median time / the model's, [95% interval] from 6 runs, else ± both times' " \
          "relative std devs combined; serial (and a workload without serial): median time, [95% interval] or " \
          "± std dev; n: successful runs; ?: a worker sat idle; -: not run there"
        # Added to the legend when a cell is marked so.
        INCONCLUSIVE = "(6/8 disturbed): 6 of that configuration's 8 runs on that side were disturbed (by other " \
          "programs or steal), most of them, so its figures are inconclusive"

        module_function

        # The cell of side i on a line of a panel: its text, marked when its
        # runs were too disturbed to give a verdict (short: a table of
        # several sides must still fit a terminal).
        def cell(panel, line, i)
          text = text(line.cells[i], serial(panel, i))
          group = line.disturbed(i)
          group ? "#{text} (#{Parts::Disturbance.counted(group, "/")} disturbed)" : text
        end

        # row: an Analysis::Row (nil: not run on this side); serial: the Row
        # of serial on the same side and size, for the spread.
        def text(row, serial = nil)
          return "-" if row.nil?
          return row.unsupported.split(":").first if row.unsupported
          return "no run succeeded (#{row.failed} failed)" if row.samples.to_i.zero?

          if row.baseline? || row.speedup.nil?
            return "#{time(row)} n=#{row.samples}#{failed(row)}"
          end

          # A ratio without a spread says why: one of its times is one run.
          lone = (serial && serial.samples == 1 && row.samples > 1) ? " (serial n=1)" : ""
          "#{speedup(row, serial)} n=#{row.samples}#{lone}#{failed(row)}"
        end

        def time(row) = Summary.median(row)

        def failed(row) = row.failed.to_i.positive? ? " (#{row.failed} failed)" : ""

        def speedup(row, serial)
          ci = row.speedup_ci
          spread = if ci&.low then " #{Parts::FigureCells.interval(ci.low, ci.high)}"
          elsif (rel = relative_spread(row, serial)) then format(" ±%.0f%%", rel * 100)
          else ""
          end
          Parts::Notes.speedup_cell(row).sub(/ \?\z/, "") + spread + (row.idle_worker_runs.to_i.positive? ? " ?" : "")
        end

        # sqrt(cv(serial)² + cv(model)²): the spread of a ratio of two
        # independent times, each as std dev / median.
        def relative_spread(row, serial)
          return nil unless serial

          parts = [row, serial].map do |r|
            s = r.messages_time
            return nil unless s.stddev && s.median.to_f.positive?

            s.stddev / s.median
          end
          Math.sqrt(parts.sum { |p| p * p })
        end

        # The serial Row of a panel on side i, if it has one.
        def serial(panel, i) = panel.lines.find(&:baseline?)&.cells&.[](i)

        # "tarai W=2 M=1", with "ruby31" when the sides are machines.
        def panel_title(panel)
          "#{panel.title} W=#{panel.workers} M=#{panel.messages}#{" #{panel.ruby}" if panel.ruby}"
        end
      end
    end
  end
end
