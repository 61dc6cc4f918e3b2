# frozen_string_literal: true

require_relative "document"
require_relative "figure_cells"
require_relative "../../analysis/rows"
require_relative "../../analysis/winners"
require_relative "verdict"
require_relative "notes"
require_relative "gap_notes"
require_relative "vm_notes"
require_relative "../../analysis/ops_per_second"
require_relative "../../analysis/message_rates"
require_relative "../../analysis/memory_scenarios"
require_relative "../../analysis/warnings"
require_relative "../../profile/findings"

module Ractorbench
  module Reports
    module Parts
      # The one maker of a report's Document: every section, in the order
      # the reports have them, from one analysis.
      module DocumentBuilder
        module_function

        def for(analysis)
          pairs = Analysis::Rows.pairs(analysis)
          rows = pairs.map(&:last)
          profiles = Profile::Findings.of(analysis)
          section = ->(id, title, content, detail: false) { Document::Section.new(id: id, title: title, content: content, detail: detail) }
          Document.new(analysis, [
            section[:figures, "Figures", Document::Figures.new(rows: rows, pairs: pairs, header: analysis.header)],
            section[:ops, "Operations per second", Analysis::OpsPerSecond.tables(analysis)],
            section[:messages, "Message passing", Analysis::MessageRates.rows(analysis)],
            section[:memory, "Memory scenarios", Analysis::MemoryScenarios.rows(analysis)],
            section[:answer, "Speedup over serial", Document::Answer.new(rows: rows, winners: Analysis::Winners.for(pairs))],
            section[:verdict, "Runs and digests", Verdict.lines(analysis)],
            section[:notes, "Notes", Notes.lines(rows)],
            section[:gaps, "Gap to the ideal", GapNotes.lines(rows, profiles), detail: true],
            section[:vm, "The Ruby VM", VmNotes.lines(analysis.header)],
            section[:profiles, "Where the time went", profiles],
            section[:cautions, "Warnings", Document::Cautions.new(note: analysis.first_run.describe,
              warnings: Analysis::Warnings.for(analysis, rows))]
          ])
        end
      end
    end
  end
end
