# frozen_string_literal: true

require "csv"
require_relative "rows"

module Ractorbench
  module Reports
    # One flat line per configuration, every statistic its own column.
    module Csv
      STATS = %w[samples mean median variance stddev min max].freeze
      KEYS = %w[workload model workers messages params ruby failed unsupported speedup whole_speedup
        cpu_utilisation cpu_seconds peak_memory_kb gc_count
        usable_cores cores_used oversubscribed parallel_efficiency cpu_cost contention settings].freeze

      module_function

      def render(analysis)
        headers = KEYS + %w[messages_time whole_time].product(STATS).map { |t, s| "#{t}_#{s}" }
        CSV.generate do |csv|
          csv << headers
          Rows.for(analysis).each do |r|
            csv << KEYS.map { |k| r[k] } + %w[messages_time whole_time].product(STATS).map { |t, s| r[t][s] }
          end
        end
      end
    end

    register("csv", Csv)
  end
end
