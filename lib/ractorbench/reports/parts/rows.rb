# frozen_string_literal: true

require_relative "../../analysis/uncertainty"
require_relative "../../analysis/efficiency"
require_relative "../../analysis/ops_per_second"
require_relative "../../analysis/work_spread"
require_relative "../../analysis/gap"
require_relative "../../analysis"

module Ractorbench
  module Reports
    module Parts
      # The figures every format shows, one flat hash per configuration, so
      # that text, Markdown, CSV and JSON cannot drift apart.
      module Rows
        module_function

        def for(analysis)
          groups(analysis).map { |g| row(g).merge(Analysis::Efficiency.row(g, analysis.header), Analysis::Gap.row(g, analysis.header)) }
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

        def row(group)
          {
            "workload" => group.workload, "model" => group.model, "workers" => group.workers,
            "messages" => group.messages, "params" => group.params_label, "ruby" => group.ruby,
            "samples" => group.messages_time.n, "failed" => group.failed_runs.size,
            "unsupported" => group.unsupported_reason,
            "messages_time" => group.messages_time.to_h, "whole_time" => group.whole_time.to_h,
            "speedup" => group.speedup, "whole_speedup" => group.whole_speedup,
            "cpu_utilisation" => group.cpu_utilisation.median,
            "cpu_seconds" => group.cpu_seconds.median,
            "peak_memory_kb" => group.peak_memory_kb.median,
            "gc_count" => group.gc_count.median,
            **Analysis::Group::COSTS.to_h { |k| [k, group.cost(k)] },
            # Runs during which other programs kept the CPUs busy (nil: not measured).
            "disturbed_runs" => (group.ok_runs.count { |r| r["disturbed"] } if group.ok_runs.any? { |r| r.key?("disturbed") })
          }.merge(Analysis::Uncertainty.row(group), Analysis::WorkSpread.row(group))
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
