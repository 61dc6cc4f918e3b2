# frozen_string_literal: true

require "forwardable"
require_relative "../stats/descriptive"
require_relative "disturbed"
require_relative "../../../harness/ractorbench/harness/fields"

module Ractorbench
  class Analysis
    # One configuration's samples and what they add up to, read from its
    # Store::Columns: rows, not Hashes.
    class Group
      extend Forwardable

      attr_reader :configuration, :columns
      # The group speedups are measured against (nil: none in its panel).
      attr_accessor :baseline
      # What its model is, as the file recorded it (Plan::ModelTraits).
      attr_reader :traits

      # Whether its model is one speedups are measured against.
      def baseline_model? = traits.baseline?(model)

      # The per-job models its model (a split) is the ceiling of.
      def ceiling_of = traits.ceilings.fetch(model, [])

      def_delegators :configuration, :workload, :model, :workers, :messages, :params, :ruby, :params_label,
        :panel, :jobs_key, :label, :title

      # columns: one configuration's Store::Columns; traits: the file's
      # Plan::ModelTraits.
      def initialize(columns, digest_check, traits:, first_run: nil)
        @columns = columns
        @traits = traits
        @configuration = columns.configuration
        sort_rows(digest_check.wrong_rows(columns))
        set_apart_first_run(first_run) if first_run
      end

      # Every run of the configuration, successful or not (RunViews).
      def runs = columns.views

      # The runs the figures come from (RunViews, made when asked for).
      def ok_runs = columns.views(@ok_rows)

      # The index-th of them (as values(key)[index] is its field).
      def ok_run(index) = columns.view(@ok_rows.fetch(index))

      # One field of the runs the figures come from, nil where a run lacks it.
      def values(key) = columns.values(key, @ok_rows)

      attr_reader :succeeded_count, :disturbed_count

      # How many runs the figures come from.
      def ok_count = @ok_rows.size

      def failed_count = @failed_rows.size
      def unsupported_count = @unsupported_rows.size

      # Whether the runs recorded what the rest of the machine did (files
      # from before that have only load averages).
      def interference_recorded? = (0...columns.size).any? { |row| columns.key?("disturbed", row) }

      # The earliest successful run, shown on its own; left out of ok_runs
      # (and so of every statistic) when the FirstRun policy says so.
      attr_reader :first_run

      def first_run_excluded? = @first_run_excluded || false

      def set_apart_first_run(policy)
        first = policy.first_index(values("seq"), values("rep"))
        @first_run = first && ok_run(first)
        @first_run_excluded = policy.exclude?(ruby, @ok_rows.size)
        @ok_rows = @ok_rows.reject { |row| row == @first_run.row } if @first_run_excluded
      end

      def messages_time = @messages_time ||= Stats::Descriptive.new(nil, sorted: sorted("messages_time"))
      def whole_time = @whole_time ||= Stats::Descriptive.new(nil, sorted: sorted("whole_time"))

      # One field of the runs the figures come from as the statistics read
      # it (Stats.sorted), sorted once however many figures read it.
      def sorted(key) = (@sorted ||= {})[key] ||= Stats.sorted(values(key)).freeze

      # Every run the figures come from has a rep of its own (what pairing by
      # repetition needs to see all of them).
      def reps_unique?
        return @reps_unique unless @reps_unique.nil?

        reps = values("rep")
        @reps_unique = reps.compact.size == reps.size && reps.uniq.size == reps.size
      end

      def disturbed_runs = columns.views(@disturbed_rows)

      # No successful run but disturbed ones (counted, not compared by
      # identity: leaving out a first run makes @ok_rows a new Array).
      def all_disturbed? = !@disturbed_rows.empty? && @disturbed_rows.size == @succeeded_count

      # The configuration gives no verdict: no undisturbed run succeeded, or
      # most of its runs were disturbed (Analysis::Disturbed.too_many?).
      def too_disturbed? = all_disturbed? || Analysis::Disturbed.too_many?(disturbed_count, columns.size)

      def failed_runs = columns.views(@failed_rows)

      # Runs that recorded a failure themselves (crash, timeout, error), as
      # opposed to a wrong digest, which failed_runs counts too.
      def crashed_runs = columns.views(@crashed_rows)

      # Every run other programs disturbed, whatever its outcome.
      def runs_disturbed = columns.views(@disturbed_any_rows)

      def unsupported_reason
        columns.value("reason", @unsupported_rows.first) if @ok_rows.empty? && !@unsupported_rows.empty?
      end

      # (user + system) / wall: how many cores the run kept busy on average.
      def cpu_utilisation = @cpu_utilisation ||= Stats::Descriptive.new(nil, sorted: sorted_cpu_utilisations)

      # Sorted once for the median and its interval.
      def sorted_cpu_utilisations = @sorted_cpu_utilisations ||= Stats.sorted(cpu_utilisations).freeze

      def cpu_utilisations
        @cpu_utilisations ||= cpu_times.zip(values("whole_time")).map { |cpu, wall| cpu / wall if wall.to_f.positive? }
      end

      def cpu_seconds = @cpu_seconds ||= Stats::Descriptive.new(cpu_times)

      # Peak memory of every process of a run together (forked workers too).
      def peak_memory_kb
        @peak_memory_kb ||= Stats::Descriptive.new(values("peak_rss_kb").zip(values("workers_peak_rss_kb"))
          .map { |own, workers| own.to_i + workers.to_i if own })
      end

      # What the runs cost beyond time (page faults, context switches,
      # allocations, GC: harness/ractorbench/harness/run_cost.rb), and any
      # other figure the field table summarises by its median.
      COSTS = Harness::Fields.medians.map(&:name).freeze

      def cost(key) = (@costs ||= {})[key] ||= Stats::Descriptive.new(nil, sorted: Stats.sorted(values(key))).median

      def speedup
        ratio(baseline&.messages_time&.median, messages_time.median)
      end

      def whole_speedup
        ratio(baseline&.whole_time&.median, whole_time.median)
      end

      private

      # Which runs succeeded, failed, were unsupported or disturbed. Runs
      # other programs disturbed stay in the file and out of the figures; a
      # configuration that has nothing else keeps them, and gives no verdict
      # (all_disturbed?). Rows are found by their few exceptions (a failed,
      # unsupported, wrong or disturbed run), each looked for in C
      # (rows_where), and the rest taken by difference: a pass a row for each
      # kind was half a second of report on a million runs.
      # Where every run succeeded undisturbed (as most do), no list of
      # statuses or of disturbed flags is made.
      def sort_rows(wrong)
        statuses = (columns.uniform("status") == "ok") ? [] : columns.values("status")
        by_status = (statuses.uniq - ["ok"]).to_h { |status| [status, rows_where(statuses, status)] }
        @crashed_rows = by_status["failed"] || []
        @unsupported_rows = by_status["unsupported"] || []
        @failed_rows = wrong.empty? ? @crashed_rows : (@crashed_rows | wrong.keys).sort
        not_ok = by_status.values.flatten(1) | wrong.keys
        succeeded = (0...columns.size).to_a
        succeeded -= not_ok unless not_ok.empty?
        @succeeded_count = succeeded.size
        @disturbed_any_rows = (columns.uniform("disturbed") == false) ? [] : rows_where(columns.values("disturbed"), true)
        @disturbed_count = @disturbed_any_rows.size
        @disturbed_rows, @ok_rows = @disturbed_any_rows.empty? ? [[], succeeded] : [@disturbed_any_rows - not_ok, succeeded - @disturbed_any_rows]
        @ok_rows = @disturbed_rows if @ok_rows.empty?
      end

      # The indexes at which list holds value (==), in order: a scan in C
      # from each one found to the next.
      def rows_where(list, value)
        rows = []
        from = 0
        while (at = list[from..].index(value))
          rows << from + at
          from += at + 1
        end
        rows
      end

      def cpu_times = @cpu_times ||= values("user").zip(values("system")).map { |user, system| user.to_f + system.to_f }

      def ratio(base, value)
        (base && value&.positive?) ? base / value : nil
      end
    end
  end
end
