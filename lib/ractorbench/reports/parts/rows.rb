# frozen_string_literal: true

require_relative "../../analysis/row"
require_relative "../../analysis/ops_per_second"
require_relative "../../analysis"

module Ractorbench
  module Reports
    module Parts
      # Which configurations a report shows, in which order; their figures
      # are Analysis::Rows.
      module Rows
        module_function

        def for(analysis)
          groups(analysis).map { |g| Analysis::Row.for(g, analysis.header) }
        end

        # The groups these rows are made of, in their order. Ops-per-second
        # runs have no job times; reports/ops_tables.rb shows them.
        def groups(analysis)
          analysis.groups.reject { |g| Analysis::OpsPerSecond.group?(g) }.sort_by { |g| sort_key(g) }
        end

        def sort_key(group)
          [group.workload, group.params_label.to_s, group.workers.to_i, group.messages.to_i, group.ruby.to_s,
            (group.model == Analysis::BASELINE) ? "" : group.model]
        end
      end

      # Number formatting shared by the human-readable formats.
      module Format
        module_function

        def seconds(summary)
          return "-" if summary["samples"].to_i.zero?

          spread = summary["stddev"] ? " ± #{fixed(summary["stddev"])}" : " (n=1)"
          "#{fixed(summary["median"])}#{spread}"
        end

        def fixed(value, digits = 4)
          value.nil? ? "-" : format("%.#{digits}f", value)
        end

        def ratio(value)
          value.nil? ? "-" : format("%.2f×", value)
        end

        def megabytes(kb)
          kb.nil? ? "-" : format("%.1f", kb / 1024.0)
        end

        def percent(value)
          value.nil? ? "-" : format("%.0f%%", value * 100)
        end

        # "[low, high]" of a Uncertainty interval hash, or why there is none.
        def interval(ci, digits = 4)
          return "-" if ci.nil?
          return "n<#{Stats::MedianInterval.min_samples}" unless ci["low"]

          "[#{fixed(ci["low"], digits)}, #{fixed(ci["high"], digits)}]"
        end

        # The first run's time, marked when it is left out of the statistics.
        def first_run(first, metric)
          return "-" unless first && first[metric]

          fixed(first[metric]) + (first["excluded"] ? " (apart)" : "")
        end
      end
    end
  end
end
