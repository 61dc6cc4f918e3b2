# frozen_string_literal: true

require "terminal-table"
require_relative "../analysis/rows"
require_relative "parts/cells"
require_relative "../plan/configuration"
require_relative "../forked_parts"
require_relative "parts/ops_tables"
require_relative "parts/message_tables"
require_relative "parts/memory_tables"
require_relative "parts/headline"
require_relative "parts/notes"
require_relative "parts/profile_tables"
require_relative "../../../harness/ractorbench/harness/fields"
require_relative "parts/document_builder"

require_relative "../reports"
require_relative "parts/format"

module Ractorbench
  module Reports
    # `report`'s default: the wide summary table, then the full statistics.
    module Text
      SUMMARY = ["workload", "model", "W", "M", "ruby", "n", "messages-only s", "whole-process s",
        "speedup", "efficiency", "CPU vs serial", "CPU", "peak MB", "failed"].freeze
      DETAILS = ["workload", "model", "W", "M", "ruby", "time", "n", "mean", "median", "variance",
        "std dev", "min", "max", "median 95% CI", "1st run"].freeze

      module_function

      def render(analysis)
        document = Parts::DocumentBuilder.for(analysis)
        return "No runs in #{analysis.contents.path}.\n" if document.empty?

        document.write(Writer.new(analysis)).flatten.compact.join("\n") + "\n"
      end

      # Each section of the document as plain text (Parts::Document#write).
      class Writer
        def initialize(analysis)
          @analysis = analysis
        end

        # The wide summary, every statistic, and the cost per run.
        def figures(section)
          rows = section.content.rows
          Text.drawn([(:summary unless rows.empty?), (:details unless rows.empty?), :costs].compact, rows)
        end

        def ops(_section) = Parts::OpsTables.text(@analysis)

        def messages(section) = Parts::MessageTables.text(section.content, Console::DEFAULT_WIDTH, prose: nil)

        def memory(section) = Parts::MemoryTables.text(section.content, Console::DEFAULT_WIDTH, prose: nil)

        def answer(section) = Parts::Headline.lines(section.content.rows)

        def verdict(section) = section.content

        def notes(section) = section.content

        def gaps(section) = section.content

        def vm(section) = section.content

        def profiles(section) = Parts::ProfileTables.text(section.content)

        def cautions(section) = section.content.lines
      end

      # Terminal::Table takes over a second for a thousand configurations'
      # tables: from TABLES_APART rows they are drawn at once, dealt in turn
      # to one process a usable core (ForkedParts), the same text as drawn
      # one after another. One process a table was three on two cores: no
      # sooner, and each forked process copied 55 MB of the report's heap
      # (a million runs' report peaked at 300 MB there).
      TABLES_APART = 200

      def drawn(tables, rows, processes: Analysis::Rows.processes)
        return tables.map { |table| public_send(table, rows) } if rows.size < TABLES_APART

        texts = ForkedParts.map(parts(tables, processes)) { |part| part.to_h { |table| [table, public_send(table, rows) || ""] } }.reduce(:merge)
        tables.map { |table| texts[table] }.reject(&:empty?)
      end

      # tables dealt in turn into at most processes parts.
      def parts(tables, processes)
        parts = Array.new(processes.clamp(1, tables.size)) { [] }
        tables.each_with_index { |table, i| parts[i % parts.size] << table }
        parts
      end

      def summary(rows)
        table = Terminal::Table.new(title: "Median ± std dev; speedup of messages-only time over serial",
          headings: SUMMARY, rows: rows.map { |r| summary_row(r) })
        (5..13).each { |i| table.align_column(i, :right) }
        table.to_s
      end

      def summary_row(r)
        keys = [Plan::Configuration.title(r["workload"], r["params"]), r["model"], r["workers"], r["messages"], r["ruby"]]
        return keys + [{value: r["unsupported"], colspan: 9}] if r["unsupported"]

        keys + [r["samples"], Parts::Format.seconds(r["messages_time"]), Parts::Format.seconds(r["whole_time"]),
          Parts::Notes.speedup_cell(r), Parts::Notes.efficiency_cell(r), Parts::Notes.cpu_cost_cell(r), Parts::Format.percent(r["cpu_utilisation"]),
          Parts::Format.megabytes(r["peak_memory_kb"]), r["failed"]]
      end

      # What each configuration cost beyond time (medians), where runs
      # recorded it: a column per field the field table shows here.
      def costs(rows)
        fields = Harness::Fields.shown_in(:text)
        body = rows.select { |r| r["minor_faults"] || r["allocated_objects"] }.map do |r|
          [r["workload"], r["model"], r["workers"], r["messages"], r["ruby"]] + fields.map { |f| r[f.name] ? Parts::GapNotes.count(r[f.name]) : "-" }
        end
        return nil if body.empty?

        headings = ["workload", "model", "W", "M", "ruby", *fields.map(&:title)]
        table = Terminal::Table.new(title: "Cost per run (medians; page faults of forked workers included)", headings: headings, rows: body)
        (5...headings.size).each { |i| table.align_column(i, :right) }
        table.to_s
      end

      def details(rows)
        body = rows.reject { |r| r["unsupported"] }.flat_map do |r|
          keys = [r["workload"], r["model"], r["workers"], r["messages"], r["ruby"]]
          [["messages-only", r["messages_time"], "messages_time"], ["whole-process", r["whole_time"], "whole_time"]].map do |label, s, metric|
            keys + [label, s["samples"]] + %w[mean median variance stddev min max].map { |k| Parts::Format.fixed(s[k], (k == "variance") ? 8 : 4) } +
              [Parts::Cells::Time.of(r, metric).interval, Parts::Format.first_run(r["first_run"], metric)]
          end
        end
        table = Terminal::Table.new(title: "Statistics (seconds)", headings: DETAILS, rows: body)
        (6..14).each { |i| table.align_column(i, :right) }
        table.to_s
      end
    end

    register("text", Text, terminal: true)
  end
end
