# frozen_string_literal: true

require_relative "../../reports"
require_relative "cells"
require_relative "../../analysis/comparison/cautions"
require_relative "../../analysis/comparison/differences"
require_relative "../parts/markdown_text"

module Ractorbench
  module Reports
    module Compare
      # `compare --format markdown`: tables ready to paste into an issue.
      module Markdown
        module_function

        def render(comparison, cautions)
          sections = comparison.againsts.map do |ag|
            headings = Cells.headings(comparison, ag)
            rows = ag.rows.map { |r| Cells.row(comparison, r) }
            rows << Cells.geomean(comparison, ag.geomean).each_with_index.map { |c, i| i.zero? ? "**#{c}**" : c } if ag.geomean
            align = headings.each_index.map { |i| (i < Cells.key_columns(comparison).size) ? "---" : "---:" }
            facts = Analysis::Comparison::Differences.lines(Analysis::Comparison::Differences.of(comparison.baseline, ag.side))
            ["### A = `#{code(comparison.baseline.label)}`, B = `#{code(ag.side.label)}`", "",
              *facts.flat_map { |f| [escape(f), ""] }, line(headings), line(align), *rows.map { |r| line(r) }, ""]
          end
          inconclusive = Analysis::Comparison::Cautions.inconclusive(comparison)
          [*sections, "_#{Cells.legend(comparison)}._", "", *cautions.map { |c| "> **Warning:** #{escape(c)}" },
            *(["", "**#{escape(inconclusive)}**"] if inconclusive)].join("\n") + "\n"
        end

        def line(cells) = Parts::MarkdownText.row(cells)

        # Names come from results files: keep them from breaking the table
        # or turning into HTML wherever the Markdown is rendered.
        def escape(text) = Parts::MarkdownText.escape(text)

        def code(text) = text.delete("`")
      end

      Reports.register("markdown", Markdown, of: :comparison, extension: "md")
    end
  end
end
