# frozen_string_literal: true

module Ractorbench
  module Reports
    # The figures every format shows, one flat hash per configuration, so
    # that text, Markdown, CSV and JSON cannot drift apart.
    module Rows
      module_function

      def for(analysis)
        analysis.groups.sort_by { |g| sort_key(g) }.map { |g| row(g) }
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
          "gc_count" => group.gc_count.median
        }
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
    end
  end
end
