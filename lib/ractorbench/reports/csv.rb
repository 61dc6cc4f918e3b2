# frozen_string_literal: true

require "csv"
require_relative "parts/rows"
require_relative "../printable"

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
      # Columns added later go last, so older readers' column positions hold.
      LATER = %w[idle_worker_runs minor_faults major_faults voluntary_switches involuntary_switches allocated_objects gc_time_ms
        work_share extra_cpu_share idle_share fixed_cost_seconds disturbed_runs].freeze

      def render(analysis)
        headers = KEYS + %w[messages_time whole_time].product(STATS).map { |t, s| "#{t}_#{s}" } +
          INTERVALS.product(%w[low high]).map { |i, end_| "#{i}_#{end_}" } + LATER
        CSV.generate do |csv|
          csv << headers
          Parts::Rows.for(analysis).each do |r|
            cells = KEYS.map { |k| r[k] } + %w[messages_time whole_time].product(STATS).map { |t, s| r[t][s] } +
              INTERVALS.product(%w[low high]).map { |i, end_| r[i]&.fetch(end_, nil) } + LATER.map { |k| r[k] }
            # A name starting with =, +, - or @ is text, not a formula to run.
            csv << cells.map { |c| Printable.cell(c) }
          end
        end
      end
    end

    register("csv", Csv)
  end
end
