# frozen_string_literal: true

require_relative "../stats/median_interval"
require_relative "../stats/outliers"
require_relative "../analysis"
require_relative "work_spread"
require_relative "reps_advice"
require_relative "../base/plural"
require_relative "../plan/configuration"
require_relative "disturbed"

module Ractorbench
  class Analysis
    # What makes a results file less trustworthy than its tables look, each
    # said with what to do about it (hyperfine's lesson: advice, not just a
    # flag). Shown under every human-readable report.
    module Analysis::Warnings
      # needs: the options this warning's advice asks for; instead: what to
      # say where a command refuses one of them (nil: nothing, the warning
      # is no use there). Declared with the advice, never read from its words.
      Warning = Struct.new(:code, :message, :needs, :instead) do
        def initialize(code, message, needs = [], instead = nil) = super

        # The message for a command that refuses the options in refused, or nil.
        def for_options(refused) = (needs & refused).empty? ? message : instead

        def to_s = message
      end

      SPREAD_LIMIT = 0.10 # std dev / mean above which runs are "noisy"
      # Serial work shorter than this is mostly start-up for any parallel model.
      SHORT_SECONDS = 0.05
      START_LOAD_LIMIT = 1.0 # one core's worth of other work before we began
      SHOWN = 3 # configurations named in a message; the rest are counted

      module_function

      # rows: Analysis::Rows.for(analysis), passed in when a report already has them.
      def for(analysis, rows)
        machine = analysis.header.machine
        measured = rows.reject { |r| r.unsupported || r.samples.to_i.zero? }
        [
          idle_workers(measured), too_short(measured),
          few_samples(measured), spread(measured), slow_first_runs(measured), outliers(measured),
          *load_or_disturbance(analysis, machine, rows), limited_cores(machine),
          oversubscribed(measured, machine), governor(machine)
        ].compact
      end

      # A configuration named as its label names it, without the internal
      # parameters (Plan::INTERNAL_PARAMS).
      def label(row) = row.shown_label

      def named(rows)
        shown = rows.first(SHOWN).map { |r| block_given? ? yield(r) : label(r) }
        shown << "and #{rows.size - SHOWN} more" if rows.size > SHOWN
        shown.join(", ")
      end

      def idle_workers(rows)
        idle = rows.select { |r| r.idle_worker_runs.to_i.positive? }
        return nil if idle.empty?

        Warning.new("idle_worker",
          "in #{Plural.count(idle.size, "configuration")} a worker did no job while another did #{Analysis::WorkSpread::SEVERAL} or more " \
          "(#{named(idle) { |r| "#{label(r)}: #{r.idle_worker_runs} of #{r.samples} runs, jobs per worker #{r.idle_worker_jobs.inspect}" }}): " \
          "their speedup (marked ?) shows how the model handed out jobs, not what parallel work gives; give every " \
          "worker several jobs (more --messages), and report it if a model leaves workers idle with jobs to spare", ["--messages"])
      end

      # The serial run of the same work took under SHORT_SECONDS (speedup x
      # this row's median is serial's median).
      def too_short(rows)
        short = rows.select do |r|
          !r.baseline? && r.speedup &&
            r.speedup * r.messages_time.median.to_f < SHORT_SECONDS
        end
        return nil if short.empty?

        Warning.new("too_short",
          "the work of #{Plural.count(short.map { |r| label_without_model(r) }.uniq.size, "configuration")} takes under " \
          "#{(SHORT_SECONDS * 1000).round} ms serially (#{named(short.uniq { |r| label_without_model(r) }) { |r| "#{label_without_model(r)}: #{(r.speedup * r.messages_time.median * 1000).round} ms" }}): " \
          "too short to show parallelism, starting threads, ractors or processes dominates; raise --messages or the workload's size",
          ["--messages"])
      end

      def label_without_model(row) = row.panel.label

      def few_samples(rows)
        need = Stats::MedianInterval.min_samples
        few = rows.select { |r| r.samples < need }
        return nil if few.empty?

        Warning.new("few_samples",
          "#{few.size} of #{Plural.count(rows.size, "configuration")} #{Plural.verb(few.size, "has", "have")} fewer than #{need} successful runs (fewest: " \
          "#{few.map(&:samples).min}), too few for a 95% interval of the median or of a speedup, " \
          "so their differences may be noise: run again with #{RepsAdvice.text(comparisons(rows))}")
      end

      # Sizes at which models are compared with each other (Winners' tests).
      def comparisons(rows)
        rows.group_by(&:panel).count { |_, g| g.size > 1 }
      end

      def spread(rows)
        noisy = rows.select { |r| relative_spread(r).to_f > SPREAD_LIMIT }.sort_by { |r| -relative_spread(r) }
        return nil if noisy.empty?

        finding = "runs vary by more than #{(SPREAD_LIMIT * 100).round}% (std dev / mean of messages-only time) in " \
          "#{Plural.count(noisy.size, "configuration")}: #{named(noisy) { |r| "#{label(r)} (#{(relative_spread(r) * 100).round}%)" }}; "
        Warning.new("spread", "#{finding}make each run longer (more --messages), close other programs, and add --reps",
          ["--messages"], "#{finding}close other programs, and add --reps")
      end

      def relative_spread(row)
        s = row.messages_time
        (s.stddev && s.mean.to_f.positive?) ? s.stddev / s.mean : nil
      end

      # Slow first runs have their own warning and are not counted again here.
      def outliers(rows)
        ids = rows.flat_map { |r| Array(r.outliers) - (slow_first_run?(r) ? [r.first_run.id] : []) }
        return nil if ids.empty?

        Warning.new("outliers",
          "#{Plural.count(ids.size, "run")} #{Plural.verb(ids.size, "stands", "stand")} far from the rest of their configuration (modified z-score above " \
          "#{Stats::Outliers::THRESHOLD}): #{ids.first(SHOWN).join(", ")}#{" and #{ids.size - SHOWN} more" if ids.size > SHOWN}; " \
          "medians resist them, but other programs or the machine's power saving may have interfered: " \
          "run again on a quiet machine")
      end

      # A first run that is an outlier on the slow side while still counted.
      def slow_first_runs(rows)
        slow = rows.select { |r| slow_first_run?(r) }
        return nil if slow.empty?

        Warning.new("slow_first_run",
          "the first run of #{Plural.count(slow.size, "configuration")} was much slower than the rest (#{named(slow)}), " \
          "probably cold caches: use --first-run exclude to keep first runs out of the statistics")
      end

      def slow_first_run?(row)
        first = row.first_run
        first && !first.excluded && Array(row.outliers).include?(first.id) &&
          first.messages_time.to_f > row.messages_time.median.to_f
      end

      # Runs that measured the rest of the machine say which of them it
      # disturbed; older files have only the load average to go by.
      def load_or_disturbance(analysis, machine, rows)
        return [start_load(machine), load_during(analysis.runs, machine, rows)] unless analysis.interference_recorded?

        [disturbed(analysis)]
      end

      def disturbed(analysis)
        runs = analysis.disturbed_runs
        return nil if runs.empty?

        only = analysis.groups.select(&:all_disturbed?)
        # Counted, not named: a configuration's label can be wider than a terminal.
        kept = if only.empty?
          ""
        else
          "; #{Plural.count(only.size, "configuration")} had no other runs, so " \
                    "#{(only.size == 1) ? "it shows its" : "they show their"} figures but give no verdict"
        end
        stopped, machine = runs.partition { |r| Analysis::Disturbed.stopped?(r) }
        stolen, others = machine.partition { |r| Analysis::Disturbed.stolen?(r) }
        causes = []
        unless stopped.empty?
          why, remedy = Analysis::Disturbed::STOPPED
          causes << ["#{why.delete_suffix(")")}; up to #{format("%.1f", stopped.map { |r| r.collector_stopped.to_f }.max)}s)",
            stopped.size, remedy]
        end
        unless others.empty?
          causes << ["by other programs (up to #{format("%.1f", others.map { |r| Analysis::Disturbed.share(r, "others_cpu") }.max)} cores busy " \
            "besides ours)", others.size, "close other programs, or use --wait-quiet"]
        end
        unless stolen.empty?
          causes << ["by the hypervisor (steal: it took up to #{(stolen.map { |r| Analysis::Disturbed.share(r, "steal") }.max * 100).round}% of " \
            "a run's time from this VM)", stolen.size, "steal comes from other virtual machines on the same host; run again " \
            "when they are quieter, or on a machine of your own"]
        end
        said = (causes.size == 1) ? " #{causes.first.first}" : ": " + causes.map { |why, n, _| "#{n} #{why}" }.join(", ")
        Warning.new("disturbed", "#{runs.size} of #{analysis.runs.size} runs were disturbed#{said} and are " \
          "left out of the figures#{kept}: #{causes.map(&:last).join("; ")}")
      end

      def start_load(machine)
        load = Array(machine.load_average).first
        return nil unless load && load >= START_LOAD_LIMIT

        Warning.new("load_before",
          "the 1-minute load average was #{format("%.2f", load)} when the collection began: other programs " \
          "were keeping about #{Plural.count(load.round, "core")} busy; close them (or wait) and run again")
      end

      # Our own runs keep at most max(usable cores, workers) busy, plus the
      # coordinating process; a load beyond that was someone else's.
      def load_during(runs, machine, rows)
        loads = runs.filter_map(&:load_average_1m)
        return nil if loads.empty?

        own = [machine.usable_cores.to_i, rows.map { |r| r.workers.to_i }.max.to_i].max + 1
        peak = loads.max
        return nil unless peak > own

        Warning.new("load_during",
          "the 1-minute load average reached #{format("%.2f", peak)} during the collection, more than the " \
          "#{own} busy processes ractorbench's own runs account for: something else competed for the CPU; " \
          "run again on a quiet machine")
      end

      def limited_cores(machine)
        cores = machine.cores.to_i
        usable = machine.usable_cores.to_i
        return nil unless cores.positive? && usable.positive? && usable < cores

        limits = []
        limits << "an affinity mask of #{Plural.count(machine.affinity_cores, "CPU")}" if machine.affinity_cores.to_i.between?(1, cores - 1)
        quota = machine.cgroup_cpu_limit
        limits << "a cgroup CPU quota of #{format("%.2f", quota)} CPUs" if quota && quota < cores
        Warning.new("limited_cores",
          "only #{usable} of the #{cores} cores #{Plural.verb(usable, "was", "were")} usable#{" (#{limits.join(" and ")})" unless limits.empty?}: parallel models cannot " \
          "go past #{usable}x; raise the container's limit (e.g. docker --cpus) or run outside it to measure " \
          "the whole machine")
      end

      def oversubscribed(rows, machine)
        usable = machine.usable_cores.to_i
        # Only rows with a speedup to rate: spawn's 10,000 units or fan-in's 64
        # senders measure a mechanism, not scaling.
        over = rows.select { |r| !r.baseline? && r.speedup && r.workers.to_i > usable }
        return nil if usable.zero? || over.empty?

        Warning.new("oversubscribed",
          "#{over.map(&:workers).uniq.sort.map { |w| "W=#{w}" }.join(", ")} #{Plural.verb(over.map(&:workers).uniq.size, "exceeds", "exceed")} the #{usable} usable " \
          "#{Plural.word(usable, "core")} (#{named(over)}): no model can go past #{usable}x there, those rows measure oversubscription; " \
          "use --workers up to #{usable} to measure scaling", ["--workers"])
      end

      def governor(machine)
        governors = machine.scaling_governors
        return nil unless governors.is_a?(Hash)

        other = governors.except("performance")
        return nil if other.empty?

        Warning.new("governor",
          "the CPU frequency scaling governor is #{other.map { |g, n| "'#{g}' on #{Plural.count(n, "CPU")}" }.join(", ")}: the " \
          "clock follows the load, so run times drift; for steadier figures set 'performance' " \
          "(sudo cpupower frequency-set -g performance) and run again")
      end
    end
  end
end
