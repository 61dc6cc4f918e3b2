# frozen_string_literal: true

require "csv"
require_relative "../analysis/rows"
require_relative "../analysis/ops_per_second"
require_relative "../base/printable"
require_relative "../../../harness/ractorbench/harness/fields"

require_relative "../reports"

module Ractorbench
  module Reports
    # One flat line per configuration, every statistic its own column.
    module Csv
      STATS = %w[samples mean median variance stddev min max].freeze
      KEYS = %w[workload model workers messages params ruby failed unsupported speedup whole_speedup
        cpu_utilisation cpu_seconds peak_memory_kb gc_count
        usable_cores cores_used oversubscribed parallel_efficiency cpu_cost contention settings].freeze

      module_function

      # 95% intervals: of both medians and of the speedup over serial.
      INTERVALS = %w[messages_time_ci whole_time_ci speedup_ci].freeze
      # The field table's medians with a CSV column (Harness::Fields) that
      # KEYS does not name, in the table's order.
      COSTS = (Harness::Fields.shown_in(:csv).map(&:name) - KEYS).freeze
      # Columns added later go last, so older readers' column positions hold;
      # a field a --load file declared (the header's "fields") goes after OPS.
      LATER = ["idle_worker_runs", *COSTS, "work_share", "extra_cpu_share", "idle_share", "fixed_cost_seconds", "disturbed_runs"].freeze
      # Seed 001's operations per second: a row per subject and Ruby, after
      # the configurations, its time columns empty.
      OPS = %w[ops_table ops_subject ops_seed ops_ran ops_samples ops_per_second_mean ops_per_second_median
        ops_per_second_stddev ops_relative_spread ops_executions ops_seconds ops_loop_ns_per_op].freeze

      def render(analysis)
        headers = KEYS + %w[messages_time whole_time].product(STATS).map { |t, s| "#{t}_#{s}" } +
          INTERVALS.product(%w[low high]).map { |i, end_| "#{i}_#{end_}" } + LATER
        added = added(analysis)
        CSV.generate do |csv|
          csv << headers + OPS + added
          Analysis::Rows.for(analysis).each do |r|
            cells = KEYS.map { |k| r[k] } + %w[messages_time whole_time].product(STATS).map { |t, s| r[t][s] } +
              INTERVALS.product(%w[low high]).map { |i, end_| r[i]&.[](end_) } + LATER.map { |k| r[k] }
            csv << printable(cells + [nil] * OPS.size + added.map { |k| r[k] })
          end
          Analysis::OpsPerSecond.tables(analysis).each do |_, rows|
            rows.each { |r| csv << printable(headers.map { |h| ops_key(r, h) } + ops_cells(r) + [nil] * added.size) }
          end
        end
      end

      # The fields with a CSV column that a --load file declared, as the
      # results header records them.
      def added(analysis) = Harness::Fields.recorded(analysis.header&.fields).select { |f| f.column?(:csv) }.map(&:name)

      # A name starting with =, +, - or @ is text, not a formula to run.
      def printable(cells) = cells.map { |c| Printable.cell(c) }

      def ops_key(row, header)
        case header
        when "workload" then Plan::ConcurrentlyTables::WORKLOAD
        when "failed" then row.failed.size
        when "model" then row.model
        when "ruby" then row.ruby
        when "unsupported" then row.unsupported
        end
      end

      def ops_cells(r)
        ops = r.ops_per_second
        [r.table, r.subject, r.seed, r.ran, r.samples, ops&.mean, ops&.median, ops&.stddev,
          ops&.relative_spread, r.executions, r.seconds, r.loop_ns_per_op]
      end
    end

    register("csv", Csv, extension: "csv")
  end
end
