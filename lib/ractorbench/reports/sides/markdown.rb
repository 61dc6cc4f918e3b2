# frozen_string_literal: true

require_relative "speedup_cells"
require_relative "text"
require_relative "../parts/markdown_text"
require_relative "../../reports"

module Ractorbench
  module Reports
    module Sides
      # `report --by ruby --format markdown`: the side-by-side table ready to
      # paste into a post or an issue, each side described under it.
      module Markdown
        module_function

        def render(sbs)
          return "No job runs to set side by side.\n" if sbs.panels.empty?

          keys = ["workload", "W×M", *("ruby" if sbs.by == "machine"), "model"]
          headings = keys + sbs.labels
          align = headings.each_index.map { |i| (i < keys.size) ? "---" : "---:" }
          body = sbs.panels.flat_map do |panel|
            panel.lines.map do |line|
              Text.keys_of(panel, line, sbs) + sbs.labels.each_index.map { |i| SpeedupCells.cell(panel, line, i) }
            end
          end
          ["**#{Text.title(sbs)}**", "", line(headings), line(align), *body.map { |cells| line(cells) }, "",
            *Text.legend(sbs).map { |l| "- #{escape(l)}" }, *sbs.cautions.flat_map { |c| ["", "> **Warning:** #{escape(c)}"] },
            *(["", "**#{escape(sbs.inconclusive)}**"] if sbs.inconclusive)].join("\n") + "\n"
        end

        def line(cells) = Parts::MarkdownText.row(cells)

        def escape(text) = Parts::MarkdownText.escape(text)
      end

      Reports.register("markdown", Markdown, of: :sides, extension: "md")
    end
  end
end
