# frozen_string_literal: true

require_relative "../../analysis"
require_relative "../../plan/configuration"
require_relative "notes"
require_relative "figure_cells"

module Ractorbench
  module Reports
    module Parts
      # The answer at a glance in a terminal: for each workload and size, one
      # bar per model, its speedup over serial with the 95% interval and the
      # number of runs behind it.
      module Headline
        WIDTH = 32
        EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"].freeze

        module_function

        # width: the terminal's, to narrow the bars to (never below 8 characters).
        def lines(rows, width: nil)
          groups = rows.group_by(&:panel)
          # Workloads that measure a mechanism (spawn, ring, fan-in) have no
          # serial run and no speedup to draw.
          groups = groups.select { |_, group| group.any? { |r| r.speedup } }
          return [] if groups.empty?

          ["Speedup over serial of the messages-only time: median ratio, [95% interval], runs per model"] +
            groups.flat_map { |panel, group| block(panel, group, width) }
        end

        def block(panel, group, width)
          title = "#{panel.title}  W=#{panel.workers} M=#{panel.messages}  #{panel.ruby}"
          # The ideal is W times faster only while there are W cores to run on.
          ideal = group.filter_map { |r| r.cores_used }.min || panel.workers.to_i
          scale = [ideal, *group.map { |r| r.speedup.to_f }, 1.0].max
          names = group.map { |r| r.model.length }.max
          # name, bar, " 12.34×  [0.50, 0.70]      n=10"
          bar_width = width ? (width - 4 - names - 36).clamp(8, WIDTH) : WIDTH
          ["#{title}  (ideal #{format("%.2f×", ideal)})"] + group.map { |r| line(r, names, scale, bar_width) }
        end

        def line(row, names, scale, bar_width = WIDTH)
          name = "  #{row.model.ljust(names)}  "
          return "#{name}#{row.unsupported}" if row.unsupported
          return "#{name}no successful run" if row.samples.to_i.zero? || row.speedup.nil?

          "#{name}#{bar(row.speedup / scale, bar_width).ljust(bar_width)} #{Notes.speedup_cell(row).rjust(7)}  " \
            "#{interval(row).ljust(16)} n=#{row.samples}"
        end

        def interval(row)
          return "" if row.baseline?

          s = FigureCells::Speedup.of(row)
          s.known? ? FigureCells.interval(s.low, s.high) : "(no interval)"
        end

        # A bar of fraction (0..1) of width, in eighths of a character.
        def bar(fraction, width = WIDTH)
          eighths = (fraction.clamp(0.0, 1.0) * width * 8).round
          "█" * (eighths / 8) + EIGHTHS[eighths % 8]
        end
      end
    end
  end
end
