# frozen_string_literal: true

require_relative "notes"
require_relative "markdown_text"
require_relative "../../base/printable"
require_relative "../../profile/findings"
require_relative "../../profile/record"
require_relative "../../profile/difference"
require_relative "../../profile/categories"

module Ractorbench
  module Reports
    module Parts
      # "Where the time went": for each profiled configuration, the seconds
      # each category took next to serial's profile of the same work, what
      # grew, and the functions that took the most; the same tables for
      # every format (text, Markdown, JSON, HTML).
      module ProfileTables
        # One model's profile, against serial's when there is one.
        Table = Struct.new(:title, :model, :tool, :measure, :headings, :rows, :sentence, :top, :file, :failure,
          keyword_init: true)
        # What Notes.label reads of a row, from a profile Record.
        Labelled = Struct.new(:workload, :params, :workers, :messages, :ruby, keyword_init: true)
        TOP_SHOWN = 6
        HEADING = "Where the time went"

        module_function

        def tables(findings)
          findings.entries.reject(&:unsupported?).filter_map do |entry|
            next if entry.baseline? && entry.ok? && has_comparison?(findings, entry)

            table(entry)
          end
        end

        # Serial gets a table of its own only when no model is set against it.
        def has_comparison?(findings, serial)
          findings.entries.any? { |e| e.serial.equal?(serial.record) }
        end

        def table(entry)
          record = entry.record
          title = "#{Notes.label(label_row(record))}: #{record.model}#{" against #{entry.serial.model}" if entry.difference}"
          base = Table.new(title: title, model: record.model, tool: record.tool, measure: entry.measure, file: record.file)
          return base.tap { |t| t.failure = record.reason || "no profile" } unless entry.ok?

          base.headings = ["category", *(entry.serial.model if entry.difference), record.model, *("change" if entry.difference)]
          base.rows = rows(entry)
          base.sentence = entry.difference && "#{record.model}: #{entry.difference.sentence(entry.measure)}"
          base.top = top(entry.profile)
          base
        end

        # Category rows: what grew first; categories empty on both sides left out.
        def rows(entry)
          mine = entry.profile
          diff = entry.difference
          keys = diff ? diff.changes.map(&:category) : Profile::Categories::KEYS.sort_by { |k| -mine.seconds_in(k) }
          # Other programs' share is not the run's: last.
          keys = keys.partition { |k| k != Profile::Difference::OTHERS }.flatten
          body = keys.filter_map do |key|
            a = mine.seconds_in(key)
            b = diff ? diff.serial.seconds_in(key) : 0.0
            next if a.zero? && b.zero?

            change = diff&.changes&.find { |c| c.category == key }
            [Profile::Categories.label(key), *(cell(b, diff.serial) if diff), cell(a, mine), *(change_cell(change) if change)]
          end
          total = ["total", *(total_cell(diff.serial) if diff), total_cell(mine), *(signed(diff.extra) if diff)]
          body << total
        end

        def cell(seconds, profile)
          share = profile.seconds.to_f.positive? ? seconds / profile.seconds.to_f : 0
          "#{Profile::Difference.seconds(seconds)} #{format("%.0f%%", share * 100)}"
        end

        # The profile's whole time and how many samples it holds.
        def total_cell(profile) = "#{Profile::Difference.seconds(profile.seconds)} n=#{profile.samples}"

        # "+190 ms", or "~ +3 ms" within the sampling noise.
        def change_cell(change)
          text = signed(change.seconds)
          (change.grew? || change.shrank?) ? text : "~ #{text}"
        end

        def signed(seconds) = "#{seconds.negative? ? "-" : "+"}#{Profile::Difference.seconds(seconds)}"

        def top(profile)
          total = profile.seconds.to_f
          Array(profile.top).first(TOP_SHOWN).map do |f|
            share = total.positive? ? f.seconds.to_f / total : 0
            "#{Printable.name(f.function)} #{format("%.0f%%", share * 100)} (#{f.category})"
          end
        end

        def label_row(record)
          Labelled.new(workload: record.workload, params: Plan::Configuration.params_label(record.params),
            workers: record.workers, messages: record.messages, ruby: record.ruby)
        end

        def explain(findings)
          tools = findings.entries.map { |e| e.record.tool }.uniq.compact
          what = tools.map do |t|
            if t == "vernier"
              "vernier (thread time: every thread's Ruby frames, waiting included)"
            else
              "perf (core time: the CPU of every thread and process of the run, and the cores it could use but left idle)"
            end
          end
          "One extra run of each configuration, profiled with #{what.join(" and ")} over the timed work only; it is " \
            "not one of the timed runs, so no figure above comes from it. change: against serial's profile of the " \
            "same work; ~ = within the sampling noise (2 √samples)."
        end

        # The closing summary's lines: what grew, per profiled model, and the
        # cautions; the tables are `report`'s.
        # label: how a record's configuration is named (try names the worker
        # count only: its workload is the user's file).
        def compact(findings, label: ->(record) { Notes.label(label_row(record)) })
          lines = findings.entries.reject(&:unsupported?).filter_map do |e|
            next "PROFILE FAILED: #{label.call(e.record)}: #{e.model}: #{Printable.name(e.record.reason)}" unless e.ok?

            "WHERE THE TIME WENT: #{label.call(e.record)}: #{e.model}: #{e.difference.sentence(e.measure)}" if e.difference
          end
          lines << "(report --format text shows each profile's categories and top functions)" unless lines.empty?
          lines + findings.cautions.map { |c| "PROFILE: #{c}" }
        end

        # Text: a block per table, fitted to 80 columns.
        def text(findings)
          return [] unless findings.any? || !findings.cautions.empty?

          lines = ["#{HEADING}: #{explain(findings)}"]
          tables(findings).each do |t|
            lines << ""
            lines << "#{t.title} (#{t.tool}, #{t.measure})"
            if t.failure
              lines << "  no profile: #{Printable.name(t.failure)}"
              next
            end
            lines << "  #{t.sentence}" if t.sentence
            lines.concat(aligned(t.headings, t.rows).map { |l| "  #{l}" })
            lines << "  top functions: #{t.top.join(", ")}" unless t.top.empty?
            lines << "  profile: #{t.file}" if t.file
          end
          lines.concat(findings.cautions.map { |c| "PROFILE: #{c}" })
          lines
        end

        def aligned(headings, rows)
          all = [headings, *rows]
          widths = headings.each_index.map { |i| all.map { |r| r[i].to_s.length }.max }
          all.map do |r|
            r.each_with_index.map { |c, i| i.zero? ? c.to_s.ljust(widths[i]) : c.to_s.rjust(widths[i]) }.join("  ").rstrip
          end
        end

        def markdown(findings)
          return [] unless findings.any? || !findings.cautions.empty?

          lines = ["", "### #{HEADING}", "", MarkdownText.escape(explain(findings))]
          tables(findings).each do |t|
            lines << "" << "**#{MarkdownText.escape(t.title)}** (#{t.tool}, #{t.measure})"
            if t.failure
              lines << "" << "No profile: #{MarkdownText.escape(Printable.name(t.failure))}"
              next
            end
            lines << "" << MarkdownText.escape(t.sentence) if t.sentence
            lines << ""
            lines << MarkdownText.row(t.headings)
            lines << "|#{t.headings.each_index.map { |i| i.zero? ? "---" : "---:" }.join("|")}|"
            t.rows.each { |r| lines << MarkdownText.row(r) }
            lines << "" << "Top functions: #{t.top.map { |f| "`#{f.tr("`", "'")}`" }.join(", ")}" unless t.top.empty?
          end
          lines.concat(findings.cautions.map { |c| "- PROFILE: #{MarkdownText.escape(c)}" }.then { |l| l.empty? ? l : ["", *l] })
          lines
        end

        def json(findings)
          findings.entries.map do |e|
            r = e.record
            {"configuration" => r.to_h.slice(*Profile::Record::CONFIGURATION), "tool" => r.tool, "measure" => e.measure,
             "status" => r.status, "reason" => r.reason, "file" => r.file, "profile" => e.profile&.to_h,
             "vs_serial" => e.difference&.to_h}.compact
          end
        end
      end
    end
  end
end
