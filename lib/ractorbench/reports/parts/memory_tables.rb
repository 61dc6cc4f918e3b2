# frozen_string_literal: true

require_relative "columns"
require_relative "row_outcomes"
require_relative "markdown_text"
require_relative "units"
require_relative "../../base/console"

module Ractorbench
  module Reports
    module Parts
      # The memory scenarios (Analysis::MemoryScenarios) for every human
      # format: a group a scenario and size, a line a Ruby and model, the
      # time with its interval beside the memory kept and the peak.
      module MemoryTables
        HEADINGS = ["memory scenario", "ruby", "model", "n", "time, median [95%]", "kept MB", "peak MB"].freeze
        LEGEND = "Memory scenarios (ruby-bench's): kept: resident memory after a full GC less that before the scenario; " \
          "peak: the highest resident memory read every 5 ms during it, less the same (the full GC touches pages of its own, " \
          "so kept may pass the peak); medians ± std dev of n runs."

        module_function

        def text(rows, layout, prose: layout)
          return [] if rows.empty?

          columns = Columns.new(HEADINGS, right: [3, 4, 5, 6])
          rows.group_by { |r| panel(r) }.each { |name, list| columns.group(name, list.map { |r| cells(r) }) }
          [Console.wrap(LEGEND, prose), columns.to_s(layout), *notes(rows).map { |l| Console.wrap(l, prose) }]
        end

        def markdown(rows)
          return [] if rows.empty?

          ["", "**Memory scenarios**", "", MarkdownText.row(HEADINGS), MarkdownText.row(HEADINGS.map.with_index { |_, i| (i < 3) ? "---" : "---:" }),
            *rows.map { |r| MarkdownText.row([panel(r), *cells(r)]) }, "", "- #{LEGEND}", *notes(rows).map { |l| "- #{l}" }]
        end

        def figures?(r) = !r.time.nil?

        def panel(r) = "#{r.scenario} #{r.workers}×#{r.messages}"

        def cells(r)
          keys = [r.ruby, r.model]
          return keys + ["", "", "", "not run (below)"] unless figures?(r)

          [*keys, r.runs.to_s, time(r.time), megabytes(r.kept_kb), megabytes(r.peak_kb)]
        end

        def time(t)
          range = t.low ? " #{Units.duration_range(t.median, t.low, t.high)}" : ""
          "#{Units.duration(t.median)}#{range}"
        end

        def megabytes(s)
          return "-" unless s.median

          spread = s.stddev ? format(" ± %.1f", s.stddev / 1024.0) : ""
          format("%.1f%s", s.median / 1024.0, spread)
        end

        def not_run(rows) = RowOutcomes.not_run(rows, figures: method(:figures?), name: method(:panel))

        def notes(rows)
          settles = rows.filter_map { |r| [r.ruby, r.settle] if r.settle }.uniq
          [*("Full GC: #{settles.map { |ruby, how| "#{how} on #{ruby}" }.join(", ")}." unless settles.empty?), *not_run(rows), *RowOutcomes.disturbed(rows)]
        end
      end
    end
  end
end
