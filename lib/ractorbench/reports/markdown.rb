# frozen_string_literal: true

require_relative "rows"
require_relative "verdict"

module Ractorbench
  module Reports
    # A table ready to paste into a blog post or an issue, with the machine.
    module Markdown
      HEADINGS = ["workload", "model", "W", "M", "ruby", "n", "messages-only s (median ± sd)",
        "whole-process s (median ± sd)", "speedup vs serial", "CPU", "peak MB", "failed"].freeze

      module_function

      def render(analysis)
        rows = Rows.for(analysis)
        [machine_line(analysis.header), "", line(HEADINGS), line(HEADINGS.map.with_index { |_, i| (i < 5) ? "---" : "---:" }),
          *rows.map { |r| line(cells(r)) }, "", *Verdict.lines(analysis).map { |l| l.start_with?("  ") ? "- `#{l.strip}`" : l }].join("\n") + "\n"
      end

      def cells(r)
        keys = [r["workload"] + (r["params"] ? " (#{r["params"]})" : ""), r["model"], r["workers"], r["messages"], r["ruby"]]
        return keys + [r["unsupported"]] + [""] * 6 if r["unsupported"]

        keys + [r["samples"], Format.seconds(r["messages_time"]), Format.seconds(r["whole_time"]),
          Format.ratio(r["speedup"]), Format.percent(r["cpu_utilisation"]), Format.megabytes(r["peak_memory_kb"]), r["failed"]]
      end

      def line(cells)
        "| " + cells.map { |c| c.to_s.gsub("|", "\\|") }.join(" | ") + " |"
      end

      def machine_line(header)
        m = header["machine"] || {}
        rubies = Array(header["rubies"]).map { |r| "#{r["name"]}: #{r.dig("info", "description")}" }
        "**Machine:** #{m["cpu_model"]}, #{m["usable_cores"]}/#{m["cores"]} usable cores, #{m["os"]}. " \
          "**Rubies:** #{rubies.join("; ")}. **Seed:** #{header["seed"]}."
      end
    end

    register("markdown", Markdown)
  end
end
