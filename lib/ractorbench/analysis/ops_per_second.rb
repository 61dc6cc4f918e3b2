# frozen_string_literal: true

require_relative "../stats/descriptive"
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
        attr_reader :ops

        def initialize(ops)
          @ops = ops
          @batch_size = ops.fetch("batch_size")
        end

        def loop_ns
          @loop_ns ||= ops.fetch("loop_samples").filter_map { |s| ns_per_op(s) }.min
        end

        def gross_ns
          ops.fetch("samples").map { |s| ns_per_op(s) }
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
          sorted = ops.fetch("samples").sort_by { |s| -s[0] / s[1].to_f }
          batches, seconds = sorted[sorted.size / 2]
          [batches * @batch_size, seconds]
        end

        private

        def ns_per_op((batches, seconds))
          batches.positive? ? seconds * 1e9 / (batches * @batch_size) : nil
        end
      end

      # One configuration (subject x table x Ruby) in every format's terms.
      def row(group)
        figures = group.ok_runs.map { |r| RunFigures.new(r.fetch("ops")) }
        ops = group.ok_runs.first&.fetch("ops") || {}
        params = group.params || {}
        # A skipped run records no subject; the harness's own files know it.
        known = Harness::Subject.find(params["subject"].to_s)
        row = {
          "table" => params["table"], "subject" => params["subject"].to_s, "model" => group.model, "ruby" => group.ruby,
          "seed" => ops["seed"] || known&.seed, "ran" => ops["ran"] || known&.ran, "runs" => figures.size,
          "unsupported" => group.unsupported_reason&.sub(/\Anot supported on this Ruby: /, ""),
          "failed" => group.failed_runs.map(&:reason)
        }
        figures.empty? ? row : row.merge(measured(figures, ops))
      end

      def measured(figures, ops)
        net = Stats::Descriptive.new(figures.flat_map(&:net_rates))
        executions, seconds = figures.first.median_sample
        {
          "samples" => figures.sum { |f| f.ops["samples"].size },
          "ops_per_second" => net.to_h.merge("relative_spread" => net.relative_spread),
          "net_ns_per_op" => Stats::Descriptive.new(figures.flat_map(&:net_ns)).to_h,
          "gross_ops_per_second" => Stats::Descriptive.new(figures.flat_map(&:gross_rates)).to_h,
          "loop_ns_per_op" => Stats::Descriptive.new(figures.map(&:loop_ns)).median,
          "executions" => executions, "seconds" => seconds,
          "gc" => ops["gc"], "gc_note" => ops["gc_note"], "async" => ops["async"]
        }.merge(ops["clock"] ? {"clock" => ops["clock"]} : {}) # a child that names its clock (mruby's may have no monotonic one)
      end

      # Rows grouped into the seed's tables, each in the seed's order:
      # [[table, [row, ...]], ...], tables without rows left out.
      def tables(analysis)
        rows = analysis.groups.select { |g| group?(g) }.map { |g| row(g) }
        rows.group_by { |r| table(r["table"]) }.sort_by { |t, _| Plan::ConcurrentlyTables::ALL.index(t) || Plan::ConcurrentlyTables::ALL.size }.map do |t, list|
          [t, list.sort_by { |r| [t.subjects.index(r["subject"]) || t.subjects.size, r["subject"], r["ruby"].to_s] }]
        end
      end
    end
  end
end
