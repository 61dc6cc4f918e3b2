# frozen_string_literal: true

require_relative "../reports/parts/columns"
require_relative "../analysis/sweep"
require_relative "../reports/parts/units"
require_relative "../reports/parts/sweep_plot"
require_relative "recommendation"
require_relative "pattern"
require_relative "../reports/parts/verdict"
require_relative "../analysis/warnings"
require_relative "../analysis/disturbed"
require_relative "worker_spread"
require_relative "text_wrap"
require_relative "paths"
require_relative "lasting_state"
require_relative "fiber_wait"
require_relative "load_race"
require_relative "../reports/parts/profile_tables"

module Ractorbench
  module Advisor
    # One screen: what ran, why a model could not (diagnoses), the sweep as
    # a table and a text chart, whether every model agreed, and the
    # recommendation.
    class Report
      HEADINGS = ["model", "W", "n", "time ± sd", "speedup", "vs serial", "effic.", "CPU", "memory MB"].freeze
      CODE_INDENT = "    "
      VERDICTS = {faster: "faster", slower: "slower", same: "~ same", unknown: "? (n<2)"}.freeze

      # width: the terminal's columns, for the table.
      def initialize(context:, analysis:, panel:, diagnoses:, excluded:, width: 100)
        @width = width
        @context = context
        @analysis = analysis
        @panel = panel
        @diagnoses = diagnoses
        @excluded = excluded
      end

      def to_s
        parts = [header]
        parts << @diagnoses.flat_map { |d| d.lines(width: @width) }.join("\n") unless @diagnoses.empty?
        if @panel
          parts << table
          parts << Reports::Parts::SweepPlot.new(@panel).to_s
        end
        parts << verdict
        spread = WorkerSpread.new(@analysis.runs, blocked: blocked_fibers).lines
        parts << spread.join("\n") unless spread.empty?
        profiled = Reports::Parts::ProfileTables.compact(Profile::Findings.of(@analysis), label: ->(r) { "W=#{r.workers}" })
        parts << profiled.map { |line| wrap(line).join("\n") }.join("\n") unless profiled.empty?
        if @panel && @analysis.digest_check.agree?
          parts << recommendation
          parts << [snippet.first, *snippet_lines].join("\n") if snippet
        end
        parts.join("\n\n") + "\n"
      end

      def advice
        @advice ||= Recommendation.new(panel: @panel, preflight: @context.preflight, excluded: @excluded,
          failures: failure_counts, reps: @context.reps, width: @width)
      end

      # The Ruby that hands the work out as the recommended model did, with
      # the user's module, worker count and a batch size from its item cost:
      # [title, code], code as the model declares it (unwrapped), or nil.
      def snippet
        return @snippet if defined?(@snippet)

        chosen = !Reports::Parts::Verdict.busy?(@analysis) && advice.choice
        text = chosen && @context.patterns[chosen.series.model]
        @snippet = text && [
          "The same shape in your code (#{chosen.series.model} at W=#{chosen.point.workers}; items: your inputs):",
          Pattern.render(text, module_name: @context.preflight.module_name, workers: chosen.point.workers,
            items: @context.items, seconds_per_item: @context.preflight.seconds_per_item)
        ]
      end

      # The lines of Ruby on the screen, which Console must leave whole: the
      # fixes' and the snippet's, laid out for the width (Pattern.lay_out).
      def code_lines = @diagnoses.flat_map { |d| d.code_lines(width: @width) } + snippet_lines

      def snippet_lines
        return [] unless snippet

        Pattern.lay_out(snippet.last, @width - CODE_INDENT.length).map { |line| "#{CODE_INDENT}#{line}" }
      end

      # Fiber models, when the check saw this Ruby's scheduler block on
      # work's wait: {model => the cause}.
      def blocked_fibers
        return {} unless FiberWait.blocked?(@context.preflight, waits: Recommendation::WAITS)

        cause = FiberWait.cause(@context.preflight)
        Array(@panel&.series).select { |s| s.family == "fiber" }.to_h { |s| [s.model, cause] }
      end

      def recommendation
        if Reports::Parts::Verdict.busy?(@analysis)
          return advice.inconclusive(Reports::Parts::Verdict.inconclusive(@analysis).sub(/\AINCONCLUSIVE: /, "")).join("\n")
        end

        lines = advice.lines
        warning = Analysis::Warnings.disturbed(@analysis)
        (warning ? lines + ["  - caution: #{warning.message}"] : lines).join("\n")
      end

      # The screen ends with try's answer: a model, stay serial, or why the
      # runs cannot tell yet (too few, a busy machine). Models the check
      # ruled out and runs that failed are part of it.
      def answered? = !!@panel && @analysis.digest_check.agree? && advice.answers?

      # No recommendation when most runs were disturbed by other programs
      # (Analysis::Disturbed): their figures measure the machine's other
      # work as much as this code.
      def inconclusive
        measured = @analysis.runs.select { |r| r.key?("others_cpu") }
        hit = measured.select(&:disturbed)
        return nil unless hit.size * 2 > measured.size

        most = hit.filter_map { |r| (r.others_cpu.to_f + r.steal.to_f) / r.whole_time.to_f if r.whole_time.to_f.positive? }.max
        cause = if Analysis::Disturbed.mostly_stolen?(hit)
          "(the hypervisor took up to #{(most.to_f * 100).round}% of their time from this VM: steal); run again when " \
            "the host is quieter, or on a machine of your own"
        else
          "(other programs kept up to #{format("%.1f", most.to_f)} cores busy while they ran); close other programs, " \
            "or run again with --wait-quiet"
        end
        ["Recommendation: inconclusive: the machine was busy: #{hit.size} of #{measured.size} runs were disturbed #{cause}",
          *advice.excluded_reasons.map { |line| "  - #{line}" }].join("\n")
      end

      private

      def header
        c = @context
        state = LastingState.line(c.preflight)
        ["ractorbench try #{c.file}: #{c.preflight.module_name}.work on #{c.items} items (#{c.items_note})",
          "#{c.ruby_description}; #{c.usable_cores} usable cores; #{c.reps} run#{"s" unless c.reps == 1} per point, " \
          "each in a fresh process; results in #{c.path}", *(state && "  #{state}")].join("\n")
      end

      # One group of rows per model, laid out for the terminal (width).
      def table
        rows = serial_rows + @panel.series.flat_map { |s| s.points.map { |p| point_row(s.model, p) } }
        table = Reports::Parts::Columns.new(HEADINGS, right: (1..8).to_a)
        rows.chunk_while { |a, b| a.first == b.first }.each { |group| table.group(group.first.first, group.map { |r| r.drop(1) }) }
        [table.to_s(@width), legend].join("\n")
      end

      def serial_rows
        @panel.baseline.map do |p|
          [p.row.model, p.workers, p.samples, seconds(p.time), "1× (baseline)", "", "", percent(p.cpu), memory(p)]
        end
      end

      def point_row(model, p)
        if p.samples.zero?
          return [model, p.workers, 0, p.row.unsupported || "no successful run (#{p.failed} failed)", "-", "", "", "", ""]
        end

        [model, p.workers, p.samples, seconds(p.time), speedup(p), VERDICTS.fetch(p.verdict),
          p.efficiency ? format("%.0f%%", p.efficiency * 100) : "-", percent(p.cpu), memory(p)]
      end

      def seconds(summary)
        return "-" if summary.n.zero?

        sd = summary.stddev ? " ± #{Reports::Parts::Units.short_duration(summary.stddev)}" : ""
        "#{Reports::Parts::Units.short_duration(summary.median)}#{sd}"
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
        p.rss_sum_kb ? text + format(" (%.1f)", p.rss_sum_kb / 1024.0) : text
      end

      def legend
        cores = @panel.usable_cores
        ["time: the models' own span (items in, results out), median ± standard deviation of n runs.",
          "speedup: serial's median time / the model's at the same worker count; [95% bootstrap interval] from 6 runs, else ± the spread the two standard deviations imply.",
          "vs serial: faster or slower beyond the noise (interval excludes 1, or with fewer runs every run beat every serial run), ~ same, or ? (too few runs).",
          "effic.: parallel efficiency, speedup / min(W, #{cores} usable cores). CPU: (user + system) / wall of the whole process tree (100% = one core busy).",
          "memory: peak RSS of the process; for processes the PSS of supervisor + workers (shared pages split between the processes sharing them), and in parentheses the RSS sum that would count them twice.",
          "Medians of n runs."].join("\n")
      end

      # Without the wrappers a failure passed through on its way out
      # (the worker's error, the adapter's), which say nothing to a user.
      def reason(run)
        Paths.short(run.reason.to_s.sub(/\Araised (?:Ractorbench::[\w:]+: )+/, "raised "))
      end

      def verdict
        check = @analysis.digest_check
        lines = []
        if check.agree? && !check.consensus.empty?
          lines << "Every model returned the same results as serial (#{@context.items} items, compared item by item; digest #{check.consensus.values.first})."
        end
        lines.concat(failure_lines)
        lines.join("\n")
      end

      def failed_runs = @analysis.crashed_runs

      # [failed, of runs in all, {model => failed}] for the recommendation.
      def failure_counts
        failed = failed_runs
        [failed.size, @analysis.runs.size, failed.group_by(&:model).transform_values(&:size)]
      end

      # A line for every model that had a failure, with its count, so that one
      # model's many failures never hide another's one; then a line for each
      # other kind of failure that model had (at most two).
      def failure_lines
        failed = failed_runs
        return [] if failed.empty?

        lines = ["INCOMPLETE: #{failed.size} of #{@analysis.runs.size} run#{"s" unless @analysis.runs.size == 1} " \
                 "failed, so the figures above leave #{(failed.size == 1) ? "it" : "them"} out:"]
        failed.group_by(&:model).sort_by { |model, runs| [-runs.size, model] }.each do |model, runs|
          all = @analysis.runs.count { |r| r.model == model }
          kinds = runs.group_by { |r| reason_kind(r) }.values
          lines.concat(wrap("  #{model}: #{runs.size} of #{all} failed; #{at(kinds.first.first)}: #{reason(kinds.first.first)}"))
          kinds.drop(1).first(2).each { |more| lines.concat(wrap("    also #{at(more.first)}: #{reason(more.first)}")) }
          race = load_race(model, runs)
          lines.concat(wrap("    why: #{race.why}; #{race.fix}")) if race
        end
        lines
      end

      # Threads that failed where the check found code loaded on first use:
      # the fix it printed above ends that race too.
      def load_race(model, runs)
        return nil unless @analysis.header.families.to_h[model] == "thread"

        runs.lazy.filter_map { |r| LoadRace.in_reason(r.reason, @context.preflight) }.first
      end

      def at(run) = "W=#{run.workers} rep #{run.rep}"

      # Failures alike but for the item they met.
      def reason_kind(run) = reason(run).gsub(/item \d+/, "item N").gsub(/\d+(\.\d+)?s\b/, "Ns")

      def wrap(text) = TextWrap.wrap(text, width: @width)
    end
  end
end
