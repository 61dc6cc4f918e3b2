# frozen_string_literal: true

require_relative "row"
require_relative "ops_per_second"
require_relative "../analysis"
require_relative "../forked_parts"
require_relative "../measure/machine"
require_relative "../stats/bootstrap"

module Ractorbench
  class Analysis
    # Which configurations a report shows, in which order; their figures
    # are Analysis::Rows.
    module Rows
      module_function

      # Rows are made in parts, one process a usable core (ForkedParts),
      # when this many runs are in configurations whose speedup interval
      # resamples repetitions (fewer than Bootstrap::LARGE_SAMPLE runs a
      # side): resampling them costs about as much as reading them did.
      # Other rows cost little beside reading their runs, and a forked
      # process's copied pages would cost more memory than its time saves.
      RESAMPLED_IN_PARTS = 2_000
      # Runs whose rows are made between two collections of what making
      # them left behind (made).
      GARBAGE_RUNS = 10_000

      MAX_PROCESSES = 8

      # How many processes share a big report's work (its rows, its text
      # tables): RACTORBENCH_READERS when set, else one per usable core
      # (one where there is no fork).
      def processes
        return 1 unless Process.respond_to?(:fork)

        (Integer(ENV["RACTORBENCH_READERS"], exception: false) || Measure::Machine.usable_cores).clamp(1, MAX_PROCESSES)
      end

      # processes: how many make the rows (default: one a usable core for
      # RESAMPLED_IN_PARTS resampled runs or more, RACTORBENCH_READERS when
      # set, else one).
      # Each is made once an analysis (Analysis#row): a page that reads
      # them for its tables, charts and sweeps makes them once.
      def for(analysis, processes: nil)
        groups = groups(analysis)
        parts = parts(groups.reject { |g| analysis.row_made?(g) }, processes || processes_for(analysis))
        header = analysis.header
        made = (parts.size > 1) ? ForkedParts.map(parts) { |part| made(part, header) } : parts.map { |part| made(part, header) }
        parts.zip(made) { |part, rows| analysis.keep_rows(part, rows) }
        groups.map { |g| analysis.row(g) }
      end

      # The rows of groups: what each row leaves behind (its runs' figures
      # gathered, sorted, summarised) is collected every GARBAGE_RUNS runs,
      # so that the next rows are made in the same few pages. Left to the
      # heap's own pace, a process making a million runs' rows grew by 45 to
      # 60 MB of garbage.
      def made(groups, header, every: GARBAGE_RUNS)
        runs = 0
        groups.map do |group|
          runs += group.columns.size
          GC.start(full_mark: false, immediate_sweep: true) if runs % every < group.columns.size
          Analysis::Row.for(group, header)
        end
      end

      # [group, row] pairs in the order of for.
      def pairs(analysis) = groups(analysis).zip(self.for(analysis))

      def processes_for(analysis)
        return processes if resampled_runs(analysis) >= RESAMPLED_IN_PARTS

        1
      end

      def resampled_runs(analysis)
        resampled = Stats::Bootstrap::MIN_SAMPLES...Stats::Bootstrap::LARGE_SAMPLE
        analysis.groups.sum { |g| resampled.cover?(g.ok_count) ? g.ok_count : 0 }
      end

      # groups dealt into at most count parts of about as many runs each,
      # and of each model's rows alike: a model's rows cost unlike another's
      # (cut in order, a million runs' parts took 1.95 and 1.26 s of CPU).
      # Each group goes to the part with fewest of its model's runs so far,
      # then fewest runs.
      def parts(groups, count)
        return [groups] if count <= 1 || groups.size < 2 * count

        parts = Array.new(count) { [] }
        runs = Array.new(count, 0)
        models = Hash.new { |h, model| h[model] = Array.new(count, 0) }
        groups.each do |group|
          of_model = models[group.model]
          part = (0...count).min_by { |k| [of_model[k], runs[k], k] }
          parts[part] << group
          of_model[part] += group.columns.size
          runs[part] += group.columns.size
        end
        parts
      end

      # The groups these rows are made of, in their order. Ops-per-second
      # runs have no job times; reports/ops_tables.rb shows them.
      def groups(analysis)
        analysis.groups.reject { |g| Analysis::OpsPerSecond.group?(g) }.sort_by { |g| sort_key(g) }
      end

      def sort_key(group)
        [*group.panel.sort_key, group.baseline_model? ? "" : group.model]
      end
    end
  end
end
