# frozen_string_literal: true

require_relative "../reports/parts/units"
require_relative "../analysis/sweep"
require_relative "../analysis/reps_advice"
require_relative "../../../harness/ractorbench/harness/model"
require_relative "text_wrap"
require_relative "lasting_state"
require_relative "fiber_wait"
require_relative "../base/plural"

module Ractorbench
  module Advisor
    # The short answer under a try report: which family of models to use, in
    # which shape and at how many workers, or to stay serial, or that the
    # runs cannot tell yet, and the reasons, each from a measured figure.
    # Families compete by their best member: a point counts as faster only
    # when it is faster beyond the noise (Analysis::Sweep::Point#verdict).
    class Recommendation
      CPU_BOUND = 0.8
      WAITS = 0.5
      # Below this per-item cost, handing an item to another process or
      # ractor (copying it there and back) is a real part of the cost.
      FINE_GRAINED = 50e-6
      # Families within the noise of each other: the one easier to adopt
      # first (threads are a drop-in; fibers need a scheduler; processes
      # copy every item; ractors need Ractor-safe code).
      EASE = %w[thread fiber process ractor].freeze
      # Each family's name in a sentence: its units, forked where it helps.
      FAMILY_NAMES = EASE.to_h { |f| [f, Plural.word(2, f)] }.merge("process" => "forked processes").freeze

      # A family's answer: its fastest point (best) and the fewest workers
      # within the noise of it (point), with the series that ran it.
      Choice = Struct.new(:family, :series, :point, :best, keyword_init: true)

      # failures: [failed runs, runs in all, {model => failed}].
      # width: the screen's, to wrap the lines at.
      def initialize(panel:, preflight:, excluded:, failures: [0, 0, {}], reps: nil, width: TextWrap::WIDTH)
        @width = width
        @panel = panel
        @preflight = preflight
        @excluded = excluded
        @failures = failures
        @reps = reps
        @cpu_share = serial_cpu || preflight.cpu_share.to_f
        @per_item = preflight.seconds_per_item.to_f
      end

      def lines
        body = choice ? use(choice) : no_winner
        body.insert(1, failures_reason) if @failures.first.positive?
        format_lines(body)
      end

      # Some model had a successful run to compare with serial: the lines
      # answer (a model, stay serial, or what it takes to tell).
      def answers? = !measured_points.empty?

      # The family, shape and worker count recommended, or nil.
      def choice
        return @choice if defined?(@choice)

        choices = family_choices
        top = choices.max_by { |c| c.best.speedup }
        @choice = top && choices.select { |c| c.equal?(top) || standing(c.best, top.best) == :tie }.min_by { |c| ease(c.family) }
      end

      # No verdict (the machine was busy), but what is known regardless: the
      # failures and the models the check ruled out.
      def inconclusive(why)
        body = ["inconclusive: #{why}"]
        body << failures_reason if @failures.first.positive?
        format_lines(body + [*fibers_reason] + excluded_reasons)
      end

      def format_lines(body)
        ["Recommendation: #{body.first}", *body.drop(1).map { |l| "  - #{l}" }].flat_map { |l| TextWrap.wrap(l, width: @width, indent: "    ") }
      end

      # Said whatever the verdict: models the check ruled out, and why.
      def excluded_reasons
        @excluded.group_by { |_, why| why }.map do |why, models|
          names = models.map(&:first)
          "#{names[0..-2].join(", ")}#{" and " if names.size > 1}#{names.last} #{(names.size > 1) ? "were" : "was"} not run: #{why}"
        end
      end

      # "ractors, each taking an equal share of the items"
      def self.shape_name(family, shape)
        noun = FAMILY_NAMES.fetch(family, family.to_s)
        phrase = Harness::Model::SHAPES[shape]
        phrase ? "#{noun}, #{phrase}" : noun
      end

      private

      # The share of serial's time that is CPU, as the table shows it (the
      # sweep's serial runs), else as the check measured it.
      def serial_cpu
        cpus = Array(@panel&.baseline).filter_map(&:cpu)
        cpus.empty? ? nil : cpus.sum / cpus.size
      end

      def ease(family) = EASE.index(family) || EASE.size

      # Each family that ran faster than serial beyond the noise: its best
      # point and, within the noise of it, the fewest workers.
      def family_choices
        @family_choices ||= @panel.series.group_by(&:family).filter_map do |family, members|
          faster = members.flat_map { |s| s.points.select { |p| p.verdict == :faster }.map { |p| [s, p] } }
          next if faster.empty?

          _, best = faster.max_by { |_, p| p.speedup }
          series, point = faster.select { |_, p| p.equal?(best) || standing(p, best) == :tie }.min_by { |_, p| [p.workers, -p.speedup] }
          Choice.new(family: family, series: series, point: point, best: best)
        end
      end

      # A run that failed (a timeout, say) takes nothing from what the runs
      # that succeeded show; the count says how much rests on them.
      def failures_reason
        failed, total, by_model = @failures
        models = by_model.sort_by { |m, n| [-n, m] }.map { |m, n| "#{m} #{n}" }.join(", ")
        "#{failed} of #{total} run#{"s" unless total == 1} failed (#{models}; see above) and #{(failed == 1) ? "is" : "are"} " \
          "left out: this rests on the #{total - failed} that succeeded"
      end

      def use(chosen)
        series = chosen.series
        point = chosen.point
        head = "use #{Recommendation.shape_name(chosen.family, series.shape)} (#{series.model}): #{speedup_text(point)} " \
          "faster than serial with #{point.workers} worker#{"s" unless point.workers == 1}" +
          (point.efficiency ? format(" (%.0f%% parallel efficiency)", point.efficiency * 100) : "")
        reasons = [LastingState.reason(@preflight, chosen.family), fewer_workers_reason(chosen), ties_reason(chosen),
          others_reason(chosen)]
        reasons.concat(messages_reasons)
        reasons << workers_reason(series, point)
        reasons << more_workers_reason(chosen)
        reasons << threads_reason
        reasons << fibers_reason
        reasons << amdahl_reason(series)
        reasons.concat(excluded_reasons)
        [head, *reasons.compact]
      end

      # Nothing faster beyond the noise: stay serial only when every point
      # had runs enough to tell and none beat serial in every run; otherwise
      # the runs cannot tell yet.
      def no_winner
        points = measured_points
        return too_few(unsure_points) unless stay_serial?

        series, best = points.max_by { |_, p| p.speedup }
        reasons = []
        if @per_item < FINE_GRAINED
          reasons << "each item takes only #{Reports::Parts::Units.duration(@per_item, space: " ")}: handing it to another process or " \
            "ractor and its result back costs about as much; give each item more work (a batch of inputs)"
        end
        reasons << threads_reason
        reasons << fibers_reason
        reasons.concat(excluded_reasons)
        ["stay serial: no model ran this work faster than serial beyond the noise (best: #{series.model} " \
          "#{speedup_text(best)} with #{best.workers} worker#{"s" unless best.workers == 1}, n=#{best.samples})", *reasons.compact]
      end

      # Every point had runs enough to tell, and none beat serial in every run.
      def stay_serial? = choice.nil? && unsure_points.empty? && !measured_points.empty?

      def unsure_points = measured_points.select { |_, p| p.verdict == :unknown || every_run_faster?(p) }

      def too_few(unsure)
        series, point = unsure.max_by { |_, p| p.speedup.to_f }
        head = if point
          "too few runs to tell: #{series.model} ran #{speedup_text(point)} with #{point.workers} " \
            "worker#{"s" unless point.workers == 1} in #{point.samples} run#{"s" unless point.samples == 1}, " \
            "not enough to tell a speedup from noise"
        else
          "too few runs to tell: no model had a successful run to compare with serial"
        end
        [head, "run again with #{reps_advice}", *fibers_reason, *excluded_reasons]
      end

      # One comparison per point with serial, as the table shows them.
      def reps_advice = Analysis::RepsAdvice.text(measured_points.size)

      def measured_points
        @panel.series.flat_map { |s| s.points.select(&:speedup).map { |p| [s, p] } }
      end

      # Every run of the model beat every run of serial, though its interval
      # (or its count) does not say faster: that is not "no".
      def every_run_faster?(point)
        point.verdict != :faster && point.time&.max && point.baseline_time&.min && point.time.max < point.baseline_time.min
      end

      # How one point stands to another, the test every "within the noise"
      # and "slower" of the recommendation comes from, the same both ways
      # round: :tie when their 95% intervals overlap each other (with too
      # few runs for intervals, when each one's runs reach into the other's
      # range of times), else :slower or :faster; :unknown when either had
      # fewer than two runs.
      def standing(point, other)
        if point.low && other.low
          apart = point.high < other.low || other.high < point.low
        elsif [point, other].all? { |p| p.samples.to_i >= 2 }
          apart = point.time.max < other.time.min || other.time.max < point.time.min
        else
          return :unknown
        end
        return :tie unless apart

        (point.speedup < other.speedup) ? :slower : :faster
      end

      def speedup_text(point)
        interval = point.low ? format(" [%.2f, %.2f]", point.low, point.high) : ""
        format("%.2f×%s", point.speedup, interval)
      end

      def fewer_workers_reason(chosen)
        return nil if chosen.point.equal?(chosen.best)

        by = @panel.series.find { |s| s.points.any? { |p| p.equal?(chosen.best) } }.model
        "#{by} with #{chosen.best.workers} workers ran #{speedup_text(chosen.best)}, within the noise of this: " \
          "the fewer workers do as well"
      end

      # Other families within the noise of the one chosen: why this one.
      def ties_reason(chosen)
        tied = family_choices.reject { |c| c.family == chosen.family }.select { |c| standing(c.best, chosen.best) == :tie }
        return nil if tied.empty?

        names = tied.map { |c| "#{c.series.model} #{speedup_text(c.best)} (#{memory(c.best)})" }
        "#{names.join(", ")} ran within the noise of it (#{noise_test(tied.map(&:best) + [chosen.best])}); #{FAMILY_NAMES.fetch(chosen.family, chosen.family)} " \
          "#{(ease(chosen.family) < tied.map { |c| ease(c.family) }.min) ? "are the simpler change" : "ran fastest"} " \
          "(memory: #{chosen.series.model} #{memory(chosen.best)})"
      end

      # Each other family's best, or that it gained nothing, and how it
      # stands to the one chosen.
      def others_reason(chosen)
        others = @panel.series.group_by(&:family).reject { |family, _| family == chosen.family || family.nil? }
        return nil if others.empty?

        parts = others.sort_by { |family, _| ease(family) }.map do |family, members|
          series, best = members.flat_map { |s| s.points.select(&:speedup).map { |p| [s, p] } }.max_by { |_, p| p.speedup }
          next "#{FAMILY_NAMES.fetch(family, family)}: no successful run" unless best

          "#{FAMILY_NAMES.fetch(family, family)} #{speedup_text(best)} (#{series.model}, W=#{best.workers}" \
            "#{", not faster beyond the noise" unless best.verdict == :faster}#{against(best, chosen)})"
        end
        "best of the others: #{parts.join("; ")}"
      end

      # The test #standing made, in words.
      def noise_test(points) = points.all?(&:low) ? "95% intervals overlap" : "the runs' times overlap"

      # ", 12% slower than processes": how a family's best stands to the
      # chosen one's, by #standing.
      def against(best, chosen)
        mine = chosen.best
        by = ((1 - best.speedup / mine.speedup).abs * 100).round
        case standing(best, mine)
        when :slower then ", #{by}% slower than #{chosen.series.model}"
        when :faster then ", #{by}% faster than #{chosen.series.model}"
        when :unknown then ", too few runs to tell it from #{chosen.series.model}"
        else ", within the noise of #{chosen.series.model}"
        end
      end

      # A family measured both one message per item and batched or split:
      # what the messages cost.
      def messages_reasons
        @panel.series.group_by(&:family).filter_map do |_, members|
          per_item = members.find { |s| s.shape == "messages" }
          bulk = members.select { |s| %w[batches split].include?(s.shape) }
          next unless per_item && !bulk.empty?

          pairs = bulk.flat_map do |s|
            s.points.filter_map do |p|
              q = per_item.points.find { |x| x.workers == p.workers }
              [s, p, q] if q&.speedup && p.speedup && p.time.median && q.time.median && p.speedup > q.speedup
            end
          end
          series, point, theirs = pairs.max_by { |_, p, _| p.speedup }
          next unless series

          extra = (theirs.time.median - point.time.median) / @panel.jobs.to_f
          "#{per_item.model} (#{Harness::Model::SHAPES["messages"]}) ran #{speedup_text(theirs)} at W=#{point.workers}, " \
            "#{Reports::Parts::Units.duration(extra, space: " ")} more an item than #{series.model} " \
            "(#{Harness::Model::SHAPES[series.shape]}) at #{speedup_text(point)}: the messages, not the work, held it back"
        end
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
          why = (@cpu_share < WAITS) ? "the work waits (#{share} of its serial time is CPU), and waiting workers leave the cores to others" : "#{share} of its serial time is CPU, so expect less from this on a busier machine"
          "more workers than the #{cores} usable cores ran faster beyond the noise: #{why}"
        elsif !beyond.empty? && @cpu_share >= CPU_BOUND
          "more workers than the #{cores} usable cores did not help (best beyond them: " \
            "#{format("%.2f", beyond.map(&:speedup).max)}×): the work is CPU-bound"
        end
      end

      # The best point at the most workers tried, and still rising beyond
      # the noise: the sweep stopped before the work did. More workers are
      # suggested only where they can help: up to the usable cores for work
      # that computes, past them only for work that waits.
      def more_workers_reason(chosen)
        series = chosen.series
        point = chosen.point
        counts = @panel.worker_counts
        return nil unless point.workers == counts.max && counts.size > 1

        previous = series.points.select { |p| p.speedup && p.workers < point.workers }.max_by(&:workers)
        return nil unless previous && point.speedup > previous.speedup * 1.1 && standing(previous, point) == :slower

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

      # Fibers swept, and the check saw this Ruby's scheduler block on the
      # wait in work: the cause, named.
      def fibers_reason
        return nil unless @panel.series.any? { |s| s.family == "fiber" }

        FiberWait.reason(@preflight, waits: WAITS)
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

      def share = (@cpu_share < 0.01) ? "under 1%" : format("%.0f%%", @cpu_share * 100)
    end
  end
end
