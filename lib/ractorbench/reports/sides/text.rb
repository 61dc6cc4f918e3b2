# frozen_string_literal: true

require_relative "speedup_cells"
require_relative "../parts/box_table"
require_relative "../../reports"

module Ractorbench
  module Reports
    module Sides
      # `report --by ruby` (the default format): a line per workload, size
      # and model, a column per Ruby (or machine). Given a terminal's width,
      # sides that do not fit in one table go on in the next, each table
      # with the same lines.
      module Text
        module_function

        def render(side_by_side, width: nil)
          return "No job runs to set side by side.\n" if side_by_side.panels.empty?

          [*tables(side_by_side, width), legend(side_by_side), *notes(side_by_side)].join("\n") + "\n"
        end

        # As few tables as fit width, the sides in order.
        def tables(sbs, width)
          all = sbs.labels.each_index.to_a
          return [table(sbs, all)] unless width

          all.size.downto(1) do |per|
            chunks = all.each_slice(per).map { |sides| table(sbs, sides) }
            return chunks if per == 1 || chunks.all? { |t| t.lines.map { |l| l.chomp.length }.max <= width }
          end
        end

        def table(sbs, sides)
          keys = ["workload", "W×M", *("ruby" if sbs.by == "machine"), "model"]
          body = sbs.panels.flat_map do |panel|
            panel.lines.each_with_index.map do |line, n|
              panel_keys = keys_of(panel, line, sbs)
              # A panel's workload and size once, on its first line.
              panel_keys = panel_keys.each_index.map { |i| (i < panel_keys.size - 1) ? "" : panel_keys[i] } unless n.zero?
              panel_keys + sides.map { |i| SpeedupCells.cell(panel, line, i) }
            end
          end
          Parts::BoxTable.new(title: title(sbs), headings: keys + sbs.labels.values_at(*sides), rows: body,
            right: (keys.size...keys.size + sides.size).to_a).to_s
        end

        def keys_of(panel, line, sbs)
          [panel.title, "#{panel.workers}×#{panel.messages}", *(panel.ruby if sbs.by == "machine"), line.model]
        end

        # The disturbed-run warnings, then the INCONCLUSIVE line if any.
        def notes(sbs) = [*sbs.cautions.map { |c| "WARNING: #{c}" }, sbs.inconclusive].compact

        def title(sbs) = "Speedup over serial on each #{sbs.by} (messages-only time)"

        def legend(sbs)
          [[SpeedupCells::LEGEND, *(SpeedupCells::INCONCLUSIVE if sbs.disturbed?)].join("; ") + ".", *sbs.descriptions.map { |label, text| "#{label}: #{text}" },
            "Is a difference real? `ractorbench compare FILE --by #{sbs.by}` tests each configuration's time " \
            "(Mann-Whitney, Holm-adjusted)."]
        end
      end

      Reports.register("text", Text, of: :sides, terminal: true, width: true, wrap: true, default: true)
    end
  end
end
