# frozen_string_literal: true

require "forwardable"
require_relative "plan/catalog"
require_relative "plan/configuration"
require_relative "stats/summary"
require_relative "analysis/digest_check"
require_relative "analysis/first_run"

module Ractorbench
  # Turns the runs of a results file into one row per configuration
  # (workload, model, workers, messages, parameters, ruby): statistics of
  # both times, speedup over the serial baseline, CPU use, memory, failures.
  class Analysis
    BASELINE = "serial"

    # One configuration's samples and what they add up to.
    class Group
      extend Forwardable

      attr_reader :configuration, :runs, :ok_runs
      attr_accessor :baseline

      def_delegators :configuration, :workload, :model, :workers, :messages, :params, :ruby, :params_label,
        :comparison_key, :jobs_key, :label, :title

      # runs: Store::RunRecords of one configuration.
      def initialize(runs, digest_check, first_run: nil)
        @configuration = runs.first.configuration
        @runs = runs
        succeeded = runs.select { |r| r.ok? && !digest_check.wrong?(r) }
        # Runs other programs disturbed stay in the file and out of the
        # figures; a configuration that has nothing else keeps them, and
        # gives no verdict (all_disturbed?).
        @disturbed_runs, @ok_runs = succeeded.partition(&:disturbed?)
        @ok_runs = @disturbed_runs if @ok_runs.empty?
        @digest_check = digest_check
        set_apart_first_run(first_run) if first_run
      end

      # The earliest successful run, shown on its own; left out of ok_runs
      # (and so of every statistic) when the FirstRun policy says so.
      attr_reader :first_run

      def first_run_excluded? = @first_run_excluded || false

      def set_apart_first_run(policy)
        @first_run = policy.first_of(@ok_runs)
        @first_run_excluded = policy.exclude?(ruby, @ok_runs.size)
        @ok_runs = @ok_runs.reject { |r| r.equal?(@first_run) } if @first_run_excluded
      end

      def messages_time = @messages_time ||= Stats::Summary.new(ok_runs.map { |r| r["messages_time"] })
      def whole_time = @whole_time ||= Stats::Summary.new(ok_runs.map { |r| r["whole_time"] })

      attr_reader :disturbed_runs

      def all_disturbed? = !@disturbed_runs.empty? && @ok_runs.equal?(@disturbed_runs)

      def failed_runs
        runs.select { |r| r.failed? || @digest_check.wrong?(r) }
      end

      def unsupported_reason
        runs.find(&:unsupported?)&.reason if ok_runs.empty?
      end

      # (user + system) / wall: how many cores the run kept busy on average.
      def cpu_utilisation
        Stats::Summary.new(ok_runs.map { |r| (r["user"].to_f + r["system"].to_f) / r["whole_time"] if r["whole_time"].to_f.positive? })
      end

      def cpu_seconds
        Stats::Summary.new(ok_runs.map { |r| r["user"].to_f + r["system"].to_f })
      end

      # Peak memory of every process of a run together (forked workers too).
      def peak_memory_kb
        Stats::Summary.new(ok_runs.map { |r| r["peak_rss_kb"].to_i + r["workers_peak_rss_kb"].to_i if r["peak_rss_kb"] })
      end

      def gc_count = Stats::Summary.new(ok_runs.map { |r| r["gc_count"] })

      # What the runs cost beyond time (page faults, context switches,
      # allocations, GC time: harness/ractorbench/harness/run_cost.rb), median.
      COSTS = %w[messages_cpu minor_faults major_faults voluntary_switches involuntary_switches allocated_objects gc_time_ms].freeze

      def cost(key) = Stats::Summary.new(ok_runs.map { |r| r[key] }).median

      def speedup
        ratio(baseline&.messages_time&.median, messages_time.median)
      end

      def whole_speedup
        ratio(baseline&.whole_time&.median, whole_time.median)
      end

      private

      def ratio(base, value)
        (base && value&.positive?) ? base / value : nil
      end
    end

    attr_reader :contents, :digest_check, :groups, :first_run

    # first_run: a FirstRun mode (auto, include, exclude).
    def initialize(contents, first_run: "auto")
      @contents = contents
      @digest_check = Analysis::DigestCheck.new(contents.runs)
      @first_run = Analysis::FirstRun.new(first_run, contents.header)
      @groups = contents.runs.group_by(&:configuration).values.map { |runs| Group.new(runs, @digest_check, first_run: @first_run) }
      link_baselines
    end

    def runs = contents.runs

    def succeeded = runs.count { |r| r.ok? && !digest_check.wrong?(r) }
    def unsupported = runs.count(&:unsupported?)
    def failed = runs.count { |r| r.failed? || digest_check.wrong?(r) }

    def header = contents.header

    def disturbed = runs.count(&:disturbed?)

    # Whether runs recorded what the rest of the machine did (files from
    # before that have only load averages).
    def interference_recorded? = runs.any? { |r| r.key?("disturbed") }

    # A model's family (serial, thread, process, ractor, fiber): as the
    # header recorded it, else, for a file written before families were
    # recorded, as the models installed here declare it.
    def family(model)
      (header["families"] || {})[model] || Plan::Catalog.default.families[model]
    end

    private

    def link_baselines
      baselines = groups.select { |g| g.model == BASELINE }.to_h { |g| [g.comparison_key, g] }
      # Serial ignores the worker count, so a serial run of the same jobs
      # (workers x messages) at another count is the same computation: a
      # sweep (`try`) measures serial once instead of at every count.
      same_jobs = groups.select { |g| g.model == BASELINE }.sort_by { |g| g.workers.to_i }.reverse
        .to_h { |g| [g.jobs_key, g] }
      groups.each { |g| g.baseline = baselines[g.comparison_key] || same_jobs[g.jobs_key] }
    end
  end
end
