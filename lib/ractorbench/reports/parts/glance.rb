# frozen_string_literal: true

require_relative "../../analysis/rows"
require_relative "../../plan/configuration"
require_relative "../../analysis/winners"
require_relative "markdown_text"
require_relative "figure_cells"
require_relative "format"

module Ractorbench
  module Reports
    module Parts
      # The Markdown report's top and bottom: a heading and the fastest model
      # for each workload and size (with how sure we are), then the note on
      # first runs and the warnings as quotes a reader cannot miss.
      module Glance
        module_function

        # entries: Analysis::Winners.for the rows' pairs.
        def lines(entries, rows)
          return [] if entries.empty?

          ["## ractorbench: #{escape(rows.map { |r| r.workload }.uniq.join(", "))}", "",
            "**Fastest model** for each workload and size (median messages-only time; speedup over serial with its 95% " \
            "interval; \"~\" when the lead is within the noise, Mann-Whitney with Holm's correction):", "",
            *entries.map { |e| "- #{entry(e)}" }, ""]
        end

        def entry(e)
          w = e.winner
          figure = (w.baseline? || w.speedup.nil?) ? nil : "#{Format.ratio(w.speedup)} over serial #{speedup_interval(w)}"
          "#{escape(Plan::Configuration.title(e.workload, e.params))} W=#{e.workers} M=#{e.messages} on #{escape(e.ruby)}: " +
            ["**#{escape(w.model)}**", figure, "(n=#{w.samples}),", Analysis::Winners.verdict(e) { |name| escape(name) }].compact.join(" ")
        end

        # cautions: a Document::Cautions.
        def cautions(cautions)
          return [] if cautions.empty?

          note = cautions.note
          ["", *(note ? ["_Note: #{escape(note)}._", ""] : []), *cautions.warnings.map { |w| "> **Warning:** #{escape(w.message)}  " }]
        end

        def speedup_interval(row) = FigureCells::Speedup.of(row).interval(missing: "(n<#{Stats::Bootstrap::MIN_SAMPLES}, no interval)")

        # Names come from results files: a table cell must stay one cell, and
        # a workload called <script> must stay text wherever the Markdown lands.
        def escape(text) = MarkdownText.escape(text)
      end
    end
  end
end
