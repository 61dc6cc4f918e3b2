# frozen_string_literal: true

require "terminal-table"
require_relative "../analysis/sweep"
require_relative "../reports/parts/units"
require_relative "../reports/parts/sweep_plot"
require_relative "recommendation"
require_relative "paths"

module Ractorbench
  module Advisor
    # One screen: what ran, why a model could not (diagnoses), the sweep as
    # a table and a text chart, whether every model agreed, and the
    # recommendation.
    class Report
      HEADINGS = ["model", "W", "n", "time (median ± sd)", "speedup", "vs serial", "efficiency", "CPU", "memory MB"].freeze
      VERDICTS = {faster: "faster", slower: "slower", same: "~ same", unknown: "? (n<2)"}.freeze

      def initialize(context:, analysis:, panel:, diagnoses:, excluded:)
        @context = context
        @analysis = analysis
        @panel = panel
        @diagnoses = diagnoses
        @excluded = excluded
      end

      def to_s
        parts = [header]
        parts << @diagnoses.flat_map(&:lines).join("\n") unless @diagnoses.empty?
        if @panel
          parts << table
          parts << Reports::Parts::SweepPlot.new(@panel).to_s
        end
        parts << verdict
        if @panel && complete?
          parts << (inconclusive || Recommendation.new(panel: @panel, preflight: @context.preflight, excluded: @excluded).lines.join("\n"))
        end
        parts.join("\n\n") + "\n"
      end

      def complete? = @analysis.failed.zero? && @analysis.digest_check.agree?

      # No recommendation when most runs were disturbed by other programs
      # (Measure::Interference): their figures measure the machine's other
      # work as much as this code.
      def inconclusive
        measured = @analysis.runs.select { |r| r.key?("others_cpu") }
        hit = measured.select { |r| r["disturbed"] }
        return nil unless hit.size * 2 > measured.size

        most = hit.filter_map { |r| (r["others_cpu"].to_f + r["steal"].to_f) / r["whole_time"].to_f if r["whole_time"].to_f.positive? }.max
        ["Recommendation: inconclusive: the machine was busy: #{hit.size} of #{measured.size} runs were disturbed " \
          "(other programs kept up to #{format("%.1f", most.to_f)} cores busy while they ran); close other programs, " \
          "or run again with --wait-quiet", *@excluded.map { |model, why| "  - #{model} was not run: #{why}" }].join("\n")
      end

      private

      def header
        c = @context
        ["ractorbench try #{c.file}: #{c.preflight["module"]}.work on #{c.items} items (#{c.items_note})",
          "#{c.ruby_description}; #{c.usable_cores} usable cores; #{c.reps} run#{"s" unless c.reps == 1} per point, " \
          "each in a fresh process; results in #{c.path}"].join("\n")
      end

      def table
        rows = serial_rows + @panel.series.flat_map { |s| s.points.map { |p| point_row(s.model, p) } }
        table = Terminal::Table.new(headings: HEADINGS, rows: rows)
        (1..8).each { |i| table.align_column(i, :right) }
        [table.to_s, legend].join("\n")
      end

      def serial_rows
        @panel.baseline.map do |p|
          ["serial", p.workers, p.samples, seconds(p.time), "1× (baseline)", "", "", percent(p.cpu), memory(p)]
        end
      end

      def point_row(model, p)
        if p.samples.zero?
          return [model, p.workers, 0, p.row["unsupported"] || "no successful run (#{p.failed} failed)", "-", "", "", "", ""]
        end

        [model, p.workers, p.samples, seconds(p.time), speedup(p), VERDICTS.fetch(p.verdict),
          p.efficiency ? format("%.0f%%", p.efficiency * 100) : "-", percent(p.cpu), memory(p)]
      end

      def seconds(summary)
        return "-" if summary.n.zero?

        sd = summary.stddev ? " ± #{Reports::Parts::Units.duration(summary.stddev)}" : ""
        "#{Reports::Parts::Units.duration(summary.median)}#{sd}"
      end

      # The 95% bootstrap interval where there are enough runs, else the
      # spread the two sides' standard deviations imply.
      def speedup(p)
        return "-" unless p.speedup
        return format("%.2f× [%.2f, %.2f]", p.speedup, p.low, p.high) if p.low

        spread = relative_spread(p.time, p.baseline_time)
        spread ? format("%.2f× ± %.2f", p.speedup, p.speedup * spread) : format("%.2f×", p.speedup)
      end

      def relative_spread(mine, base)
        a = mine&.relative_spread
        b = base&.relative_spread
        (a && b) ? Math.sqrt(a**2 + b**2) : nil
      end

      def percent(value) = value ? format("%.0f%%", value * 100) : "-"

      def memory(p)
        return "-" unless p.memory_kb

        text = format("%.1f %s", p.memory_kb / 1024.0, p.memory_kind)
        p.rss_sum_kb ? text + format(" (RSS sum %.1f)", p.rss_sum_kb / 1024.0) : text
      end

      def legend
        cores = @panel.usable_cores
        ["time: the models' own span (items in, results out), median ± standard deviation of n runs.",
          "speedup: serial's median time / the model's at the same worker count; [95% bootstrap interval] from 6 runs, else ± the spread the two standard deviations imply.",
          "vs serial: faster or slower beyond the noise (interval excludes 1, or with fewer runs every run beat every serial run), ~ same, or ? (too few runs).",
          "efficiency: speedup / min(W, #{cores} usable cores). CPU: (user + system) / wall of the whole process tree (100% = one core busy).",
          "memory: peak RSS of the process; for processes the PSS of supervisor + workers (shared pages split between the processes sharing them), and the RSS sum that would count them twice.",
          "Medians of n runs."].join("\n")
      end

      # Without the wrappers a failure passed through on its way out
      # (the worker's error, the adapter's), which say nothing to a user.
      def reason(run)
        Paths.short(run["reason"].to_s.sub(/\Araised (?:Ractorbench::[\w:]+: )+/, "raised "))
      end

      def verdict
        check = @analysis.digest_check
        lines = []
        if check.agree? && !check.consensus.empty?
          lines << "Every model returned the same results as serial (#{@context.items} items, compared item by item; digest #{check.consensus.values.first})."
        end
        failed = @analysis.runs.select { |r| r["status"] == "failed" }
        unless failed.empty?
          lines << "INCOMPLETE: #{failed.size} of #{@analysis.runs.size} runs failed, so the figures above leave them out:"
          failed.first(8).each { |r| lines << "  #{r["model"]} W=#{r["workers"]} rep #{r["rep"]}: #{reason(r)}" }
        end
        lines.join("\n")
      end
    end
  end
end
