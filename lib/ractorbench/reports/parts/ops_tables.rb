# frozen_string_literal: true

require_relative "../../analysis/ops_per_second"
require_relative "box_table"
require_relative "columns"
require_relative "../../base/console"
require_relative "markdown_text"

module Ractorbench
  module Reports
    module Parts
      # The ops-per-second rows (seed 001) in the seed's three tables, for the
      # text and Markdown reports: each names the seed's call style and what
      # ractorbench ran for it, the seed's "N executions in T seconds", and
      # operations per second net of the empty loop with their spread.
      module OpsTables
        HEADINGS = ["Concurrently", "ractorbench ran", "model", "ruby", "n", "executions (median sample)",
          "ops/s net (mean ± sd)", "± %"].freeze

        module_function

        def text(analysis)
          Analysis::OpsPerSecond.tables(analysis).map do |table, rows|
            box = BoxTable.new(title: table.title, headings: HEADINGS, rows: rows.map { |r| text_cells(r) }, right: (4..7).to_a)
            [box.to_s, *notes(rows)].join("\n")
          end
        end

        # For a terminal of width columns (run's and the tour's closing
        # text): the table laid out for width, the prose wrapped at prose
        # (nil: lines kept whole).
        def compact(analysis, width, prose: nil)
          Analysis::OpsPerSecond.tables(analysis).map do |table, rows|
            rubies = rows.map(&:ruby).uniq.size > 1
            columns = Columns.new(["Concurrently", "ractorbench ran", "model", *("ruby" if rubies), "n", "ops/s net ± sd"],
              right: rubies ? [4, 5] : [3, 4])
            # One group a subject: its Rubies' lines under one name.
            rows.chunk_while { |a, b| a.subject == b.subject }.each do |same|
              columns.group(same.first.seed || same.first.subject, same.map do |r|
                figures = outcome(r) ? ["", outcome(r).split(":").first] : [r.samples.to_s, short_ops(r.ops_per_second)]
                [r.ran || r.subject, r.model, *(r.ruby if rubies), *figures]
              end)
            end
            [Console.wrap(table.title, prose), columns.to_s(width), *[*notes(rows), *skipped_lines(rows)].map { |l| Console.wrap(l, prose) }].join("\n")
          end
        end

        # One line for the subjects one Ruby skipped for one reason (an
        # engine without async skips a dozen alike).
        def skipped_lines(rows)
          rows.select(&:unsupported).group_by { |r| [r.ruby, outcome(r)] }.map do |(ruby, why), list|
            "#{list.map(&:subject).join(", ")} on #{ruby}: #{why}"
          end
        end

        # "12.8M ± 72%": three significant digits.
        def short_ops(ops)
          return "within the loop's noise" if ops.samples.to_i.zero?

          spread = ops.relative_spread ? format(" ± %.0f%%", ops.relative_spread * 100) : ""
          "#{significant(ops.mean)}#{spread}"
        end

        def significant(value)
          return "-" if value.nil?

          value, unit = [[1e9, "G"], [1e6, "M"], [1e3, "k"]].find { |size, _| value >= size }&.then { |size, u| [value / size, u] } || [value, ""]
          digits = if value >= 100 then 0
          elsif value >= 10 then 1
          else 2
          end
          format("%.#{digits}f%s", value, unit)
        end

        def markdown(analysis)
          Analysis::OpsPerSecond.tables(analysis).flat_map do |table, rows|
            ["", "**#{table.title}**", "", md_line(HEADINGS), md_line(HEADINGS.map.with_index { |_, i| (i < 4) ? "---" : "---:" }),
              *rows.map { |r| md_line(cells(r)) }, "", *notes(rows).map { |l| "- #{l}" }]
          end
        end

        # The rows as the JSON report writes them.
        def json(analysis)
          Analysis::OpsPerSecond.tables(analysis).flat_map { |_, rows| rows.map(&:to_h) }
        end

        def text_cells(r)
          keys, rest = cells(r).each_slice(4).to_a
          outcome(r) ? keys + [BoxTable::Span.new(outcome(r), 4)] : keys + rest
        end

        def cells(r)
          keys = [r.seed || r.subject, r.ran || r.subject, r.model, r.ruby]
          return keys + [outcome(r), "", "", ""] if outcome(r)

          ops = r.ops_per_second
          keys + [r.samples, format("%d executions in %.4f seconds", r.executions, r.seconds),
            ops.samples.to_i.zero? ? "within the loop's noise" : "#{count(ops.mean)} ± #{count(ops.stddev)}",
            ops.relative_spread ? format("%.1f%%", ops.relative_spread * 100) : "-"]
        end

        # Why a row has no figures: skipped on this Ruby, or failed.
        def outcome(r)
          return "skipped: #{r.unsupported}" if r.unsupported
          return "FAILED: #{r.failed.first}" if r.runs.zero? && r.failed.any?

          "no successful runs" if r.runs.zero?
        end

        def notes(rows)
          measured = rows.select(&:loop_ns_per_op)
          return [] if measured.empty?

          loops = measured.map(&:loop_ns_per_op).minmax.map { |ns| format("%.1f", ns) }.uniq.join("-")
          lines = ["ops/s net: executions per second once the empty loop's cost (batch.each { }, its fastest sample: #{loops} ns " \
            "an operation) is taken off; n = samples; executions: Concurrently's gross figure for the median sample. " \
            "GC #{measured.map(&:gc).uniq.join("/")}#{async_note(measured)}."]
          lines.concat(measured.filter_map(&:gc_note).uniq)
          lines.concat(measured.filter_map { |r| "#{r.ruby} timed with #{r.clock}." if r.clock }.uniq)
          rows.each { |r| r.failed.each { |reason| lines << "FAILED #{r.subject} on #{r.ruby}: #{reason}" } }
          lines
        end

        def async_note(rows)
          versions = rows.filter_map(&:async).uniq
          versions.empty? ? "" : "; fibers: async #{versions.join(", ")} (wait 0 = Fiber.scheduler.yield)"
        end

        def count(value)
          value.nil? ? "-" : value.round.to_s.reverse.scan(/\d{1,3}/).join(",").reverse
        end

        def md_line(cells) = MarkdownText.row(cells)
      end
    end
  end
end
