# frozen_string_literal: true

require_relative "parts/box_table"
require_relative "parts/figure_cells"
require_relative "../plan/configuration"
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
          [*([Text.summary(rows), Text.details(rows)] unless rows.empty?), Text.costs(rows)]
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

      def summary(rows)
        Parts::BoxTable.new(title: "Median ± std dev; speedup of messages-only time over serial", headings: SUMMARY,
          rows: rows.map { |r| summary_row(r) }, right: (5..13).to_a).to_s
      end

      def summary_row(r)
        keys = [Plan::Configuration.title(r.workload, r.params), r.model, r.workers, r.messages, r.ruby]
        return keys + [Parts::BoxTable::Span.new(r.unsupported, 9)] if r.unsupported

        keys + [r.samples, Parts::Format.seconds(r.messages_time), Parts::Format.seconds(r.whole_time),
          Parts::Notes.speedup_cell(r), Parts::Notes.efficiency_cell(r), Parts::Notes.cpu_cost_cell(r), Parts::Format.percent(r.cpu_utilisation),
          Parts::Format.megabytes(r.peak_memory_kb), r.failed]
      end

      # What each configuration cost beyond time (medians), where runs
      # recorded it: a column per field the field table shows here.
      def costs(rows)
        fields = Harness::Fields.shown_in(:text)
        body = rows.select { |r| r.minor_faults || r.allocated_objects }.map do |r|
          [r.workload, r.model, r.workers, r.messages, r.ruby] + fields.map { |f| r[f.name] ? Parts::GapNotes.count(r[f.name]) : "-" }
        end
        return nil if body.empty?

        headings = ["workload", "model", "W", "M", "ruby", *fields.map(&:title)]
        Parts::BoxTable.new(title: "Cost per run (medians; page faults of forked workers included)", headings: headings,
          rows: body, right: (5...headings.size).to_a).to_s
      end

      def details(rows)
        body = rows.reject { |r| r.unsupported }.flat_map do |r|
          keys = [r.workload, r.model, r.workers, r.messages, r.ruby]
          [["messages-only", r.messages_time, "messages_time"], ["whole-process", r.whole_time, "whole_time"]].map do |label, s, metric|
            keys + [label, s.samples] + %w[mean median variance stddev min max].map { |k| Parts::Format.fixed(s[k], (k == "variance") ? 8 : 4) } +
              [Parts::FigureCells::Time.of(r, metric).interval, Parts::Format.first_run(r.first_run, metric)]
          end
        end
        Parts::BoxTable.new(title: "Statistics (seconds)", headings: DETAILS, rows: body, right: (6..14).to_a).to_s
      end
    end

    register("text", Text, terminal: true)
  end
end
