# frozen_string_literal: true

require_relative "../reports/parts/units"
require_relative "../analysis/sweep"
require_relative "text_wrap"

module Ractorbench
  module Advisor
    # The short answer under a try report: which model to use at how many
    # workers, or to stay serial, and the reasons, each from a measured
    # figure. A model counts as faster only when it is faster beyond the
    # noise (Analysis::Sweep::Point#verdict).
    class Recommendation
      CPU_BOUND = 0.8
      WAITS = 0.5
      # Below this per-item cost, handing an item to another process or
      # ractor (copying it there and back) is a real part of the cost.
      FINE_GRAINED = 50e-6

      # failures: [failed runs, runs in all, {model => failed}].
      def initialize(panel:, preflight:, excluded:, failures: [0, 0, {}])
        @panel = panel
        @preflight = preflight
        @excluded = excluded
        @failures = failures
        @cpu_share = serial_cpu || preflight["cpu_share"].to_f
        @per_item = preflight["seconds_per_item"].to_f
      end

      def lines
        winners = best_points.select { |_, p| p&.verdict == :faster }.sort_by { |_, p| -p.speedup }
        body = winners.empty? ? stay_serial : use(winners)
        body.insert(1, failures_reason) if @failures.first.positive?
        format_lines(body)
      end

      # No verdict (the machine was busy), but what is known regardless: the
      # failures and the models the check ruled out.
      def inconclusive(why)
        body = ["inconclusive: #{why}"]
        body << failures_reason if @failures.first.positive?
        format_lines(body + excluded_reasons)
      end

      def format_lines(body)
        ["Recommendation: #{body.first}", *body.drop(1).map { |l| "  - #{l}" }].flat_map { |l| TextWrap.wrap(l, indent: "    ") }
      end

      # Said whatever the verdict: models the check ruled out, and why.
      def excluded_reasons
        @excluded.map { |model, why| "#{model} was not run: #{why}" }
      end

      private

      # The share of serial's time that is CPU, as the table shows it (the
      # sweep's serial runs), else as the check measured it.
      def serial_cpu
        cpus = Array(@panel&.baseline).filter_map(&:cpu)
        cpus.empty? ? nil : cpus.sum / cpus.size
      end

      # A run that failed (a timeout, say) takes nothing from what the runs
      # that succeeded show; the count says how much rests on them.
      def failures_reason
        failed, total, by_model = @failures
        models = by_model.sort_by { |m, n| [-n, m] }.map { |m, n| "#{m} #{n}" }.join(", ")
        "#{failed} of #{total} run#{"s" unless total == 1} failed (#{models}; see above) and #{(failed == 1) ? "is" : "are"} " \
          "left out: this rests on the #{total - failed} that succeeded"
      end

      def best_points
        @panel.series.map { |s| [s, s.points.select(&:speedup).max_by(&:speedup)] }
      end

      def use(winners)
        top, point = winners.first
        peers = winners.drop(1).select { |_, p| overlaps?(p, point) }
        names = [top.model, *peers.map { |s, _| s.model }]
        head = "use #{either(names)}: #{top.model} with #{point.workers} worker#{"s" unless point.workers == 1} " \
          "ran #{format("%.2f", point.speedup)}× faster than serial" +
          (point.efficiency ? format(" (%.0f%% parallel efficiency)", point.efficiency * 100) : "")
        reasons = []
        reasons << peers_reason(top, point, peers) unless peers.empty?
        reasons << workers_reason(top, point)
        reasons << more_workers_reason(top, point)
        reasons << threads_reason
        reasons << amdahl_reason(top)
        reasons.concat(excluded_reasons)
        [head, *reasons.compact]
      end

      def stay_serial
        reasons = []
        points = best_points.map(&:last).compact
        if points.all? { |p| p.verdict == :unknown }
          reasons << "too few runs to tell a speedup from noise: run again with --reps 6 or more"
        end
        if @per_item < FINE_GRAINED
          reasons << "each item takes only #{Reports::Parts::Units.duration(@per_item, space: " ")}: handing it to another process or " \
            "ractor and its result back costs about as much; give each item more work (a batch of inputs)"
        end
        reasons << threads_reason
        reasons.concat(excluded_reasons)
        ["stay serial: no model ran this work faster than serial beyond the noise", *reasons.compact]
      end

      def overlaps?(other, best)
        if other.low && best.low
          other.high >= best.low
        else
          other.time.min && best.time.max && other.time.min <= best.time.max
        end
      end

      def peers_reason(top, point, peers)
        parts = [[top, point], *peers].map { |s, p| "#{s.model} #{memory(p)}" }
        "they are within the noise of each other; memory at those points: #{parts.join(", ")}"
      end

      def memory(point)
        return "?" unless point.memory_kb

        format("%.1f MB %s", point.memory_kb / 1024.0, point.memory_kind)
      end

      def workers_reason(series, point)
        cores = @panel.usable_cores
        return nil unless cores

        beyond = series.points.select { |p| p.workers > cores && p.speedup }
        if point.workers > cores
          "more workers than the #{cores} usable cores still helped: the work waits " \
            "(#{share} of its serial time is CPU), and waiting workers leave the cores to others"
        elsif !beyond.empty?
          "more workers than the #{cores} usable cores did not help (best beyond them: " \
            "#{format("%.2f", beyond.map(&:speedup).max)}×): the work is CPU-bound"
        end
      end

      # The best point at the most workers tried, and still rising: the
      # sweep stopped before the work did. More workers are suggested only
      # where they can help: up to the usable cores for work that computes,
      # past them only for work that waits.
      def more_workers_reason(series, point)
        counts = @panel.worker_counts
        return nil unless point.workers == counts.max && counts.size > 1

        previous = series.points.select { |p| p.speedup && p.workers < point.workers }.max_by(&:workers)
        return nil unless previous && point.speedup > previous.speedup * 1.1

        cores = @panel.usable_cores
        more = if @cpu_share < WAITS || cores.nil?
          [point.workers * 2, point.workers * 4]
        else
          [cores, [cores, point.workers * 2].min].uniq.select { |n| n > point.workers }
        end
        if more.empty?
          return "it was still rising at #{point.workers} workers, as many as this machine's #{cores} usable " \
            "cores run at once: a machine with more cores would take it further"
        end

        "it was still rising at #{point.workers} workers, the most tried: try more, e.g. --workers #{[1, point.workers, *more].uniq.join(",")}"
      end

      def threads_reason
        threads = @panel.series.find { |s| s.family == "thread" }
        return nil unless threads

        best = threads.points.select(&:speedup).max_by(&:speedup)
        return nil unless best

        if best.verdict != :faster && @cpu_share >= CPU_BOUND
          "threads gained nothing (best #{format("%.2f", best.speedup)}×): the work is CPU-bound Ruby " \
            "(#{share} CPU serially) and the GVL lets one thread run Ruby at a time"
        elsif best.verdict == :faster && @cpu_share < WAITS
          "threads help because a thread that waits releases the GVL to the others"
        end
      end

      def amdahl_reason(series)
        fit = series.fit
        if fit.kind.nil?
          cores = @panel.usable_cores
          return "no Amdahl fit (serial fraction, ceiling): that needs speedups at #{Analysis::Sweep::FIT_COUNTS} or " \
            "more worker counts within the usable cores#{", and this machine has #{cores}" if cores && cores < Analysis::Sweep::FIT_COUNTS}"
        end

        return nil unless %i[linear scales].include?(fit.kind)

        over = "Amdahl fit over #{fit.points} point#{"s" unless fit.points == 1}"
        if fit.kind == :linear
          "#{series.model} scales almost linearly: serial fraction #{format("%.3f", fit.fraction)} (#{over})"
        else
          "#{series.model}: serial fraction #{format("%.2f", fit.fraction)}#{format(" ± %.2f", fit.stderr) if fit.stderr} " \
            "(#{over}), so no number of cores would take it past #{format("%.1f", fit.max_speedup)}×"
        end
      end

      def either(names) = (names.size > 1) ? "#{names[0..-2].join(", ")} or #{names.last}" : names.first

      def share = (@cpu_share < 0.01) ? "under 1%" : format("%.0f%%", @cpu_share * 100)
    end
  end
end
