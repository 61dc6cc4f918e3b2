# frozen_string_literal: true

require_relative "../stats/descriptive"
require_relative "../stats/string_keys"
require_relative "../plan/concurrently_tables"
require_relative "../../../harness/ractorbench/harness/subject"

module Ractorbench
  class Analysis
    # The driver's side of the ops-per-second workload (seed 001, the cost of
    # concurrency itself): the arithmetic that turns a run's raw batch counts
    # and times into operations per second net of the empty loop, and one row
    # per configuration for the reports, in the seed's three tables (declared
    # with the suite that plans them: Plan::ConcurrentlyTables).
    module Analysis::OpsPerSecond
      # Runs that are not in one of the seed's tables (e.g. `-w ops-per-second`).
      OTHER = Plan::ConcurrentlyTables::Table.new(name: nil, title: "Operations per second", subjects: []).freeze

      module_function

      def group?(group)
        group.workload == Plan::ConcurrentlyTables::WORKLOAD
      end

      def table(name)
        Plan::ConcurrentlyTables::ALL.find { |t| t.name == name } || OTHER
      end

      # What one run's samples add up to. Times are per operation, in
      # nanoseconds; each sample's gross cost less the empty loop's is its net
      # cost. The empty loop's cost is its fastest sample: interference only
      # ever adds time, and a loop sample slowed by it would take off cost the
      # operation really had.
      class RunFigures
        attr_reader :samples, :seed, :ran, :gc, :gc_note, :async, :clock

        # ops: a run's "ops" answer as the child wrote it (JSON, string keys),
        # read once here.
        def initialize(ops)
          @batch_size = ops.fetch("batch_size")
          @samples = ops.fetch("samples")
          @loop_samples = ops.fetch("loop_samples")
          @seed = ops["seed"]
          @ran = ops["ran"]
          @gc = ops["gc"]
          @gc_note = ops["gc_note"]
          @async = ops["async"]
          @clock = ops["clock"] # mruby's child names its clock (it may have no monotonic one)
        end

        def loop_ns
          @loop_ns ||= @loop_samples.filter_map { |s| ns_per_op(s) }.min
        end

        def gross_ns
          samples.map { |s| ns_per_op(s) }
        end

        def net_ns
          gross_ns.map { |g| g - loop_ns }
        end

        # Net operations per second, sample by sample; nil where the loop's
        # own noise swallowed the operation (net cost not above zero).
        def net_rates
          net_ns.map { |ns| 1e9 / ns if ns.positive? }
        end

        def gross_rates
          gross_ns.map { |ns| 1e9 / ns }
        end

        # [executions, seconds] of the sample with the median gross rate: the
        # seed's "N executions in T seconds".
        def median_sample
          sorted = samples.sort_by { |s| -s[0] / s[1].to_f }
          batches, seconds = sorted[sorted.size / 2]
          [batches * @batch_size, seconds]
        end

        private

        def ns_per_op((batches, seconds))
          batches.positive? ? seconds * 1e9 / (batches * @batch_size) : nil
        end
      end

      # Net operations per second: a sample's figures and its spread
      # relative to the mean.
      NetRates = Struct.new(*Stats::Descriptive::Figures.members, :relative_spread, keyword_init: true) do
        include Stats::StringKeys

        def self.of(summary) = new(**summary.figures.each_pair.to_h, relative_spread: summary.relative_spread)
      end

      # What names a configuration, shown whether or not it ran.
      HEAD = %i[table subject model ruby seed ran runs unsupported failed].freeze
      # Its figures, where a run succeeded (the rates and the times per
      # operation a Stats::Descriptive::Figures, ops_per_second a NetRates),
      # then the clock its child named, if any.
      FIGURES = %i[samples ops_per_second net_ns_per_op gross_ops_per_second loop_ns_per_op executions seconds
        gc gc_note async clock].freeze

      # One configuration (subject x table x Ruby) in every format's terms,
      # read by method (row.ops_per_second.mean).
      Row = Struct.new(*HEAD, *FIGURES, keyword_init: true) do
        def measured? = runs.positive?

        # The JSON report's object: string keys in the members' order; a row
        # without figures has only its HEAD, a child that named no clock no
        # "clock"; figures as Hashes.
        def to_h
          shown = measured? ? members : HEAD
          shown -= [:clock] unless clock
          shown.to_h { |m| [m.to_s, plain(self[m])] }
        end

        private def plain(value) = value.is_a?(Stats::StringKeys) ? value.to_h : value
      end

      def row(group)
        figures = group.ok_runs.map { |r| RunFigures.new(r.ops) }
        first = figures.first
        params = group.params || {}
        subject = params["subject"].to_s
        # A skipped run records no subject; the harness's own files know it.
        known = Harness::Subject.find(subject)
        Row.new(
          table: params["table"], subject: subject, model: group.model, ruby: group.ruby,
          seed: first&.seed || known&.seed, ran: first&.ran || known&.ran, runs: figures.size,
          unsupported: group.unsupported_reason&.sub(/\Anot supported on this Ruby: /, ""),
          failed: group.failed_runs.map(&:reason), **(first ? measured(figures) : {})
        )
      end

      def measured(figures)
        first = figures.first
        executions, seconds = first.median_sample
        {
          samples: figures.sum { |f| f.samples.size },
          ops_per_second: NetRates.of(Stats::Descriptive.new(figures.flat_map(&:net_rates))),
          net_ns_per_op: Stats::Descriptive.new(figures.flat_map(&:net_ns)).figures,
          gross_ops_per_second: Stats::Descriptive.new(figures.flat_map(&:gross_rates)).figures,
          loop_ns_per_op: Stats::Descriptive.new(figures.map(&:loop_ns)).median,
          executions: executions, seconds: seconds,
          gc: first.gc, gc_note: first.gc_note, async: first.async, clock: first.clock
        }
      end

      # Rows grouped into the seed's tables, each in the seed's order:
      # [[table, [row, ...]], ...], tables without rows left out.
      def tables(analysis)
        rows = analysis.groups.select { |g| group?(g) }.map { |g| row(g) }
        rows.group_by { |r| table(r.table) }.sort_by { |t, _| Plan::ConcurrentlyTables::ALL.index(t) || Plan::ConcurrentlyTables::ALL.size }.map do |t, list|
          [t, list.sort_by { |r| [t.subjects.index(r.subject) || t.subjects.size, r.subject, r.ruby.to_s] }]
        end
      end
    end
  end
end
