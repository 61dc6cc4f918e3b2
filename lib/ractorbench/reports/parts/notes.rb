# frozen_string_literal: true

require_relative "../../plural"

module Ractorbench
  module Reports
    module Parts
      # Lines under the human-readable tables that explain the derived
      # figures: what parallel efficiency is measured against, which models
      # burned far more CPU than serial for the same work, and the interpreter
      # settings each Ruby ran with.
      module Notes
        SHOWN = 10

        module_function

        def lines(rows)
          [efficiency(rows), *contention(rows), settings(rows)].compact
        end

        def efficiency(rows)
          rated = rows.select { |r| r["parallel_efficiency"] }
          return nil if rated.empty?

          usable = rated.first["usable_cores"]
          over = rated.select { |r| r["oversubscribed"] }.map { |r| r["workers"] }.uniq.sort
          "Efficiency = speedup / min(W, usable cores); this machine has #{Plural.count(usable, "usable core")} (affinity mask and cgroup " \
            "CPU quota honoured)" + (over.empty? ? "." : "; W=#{over.join(", ")} #{Plural.verb(over.size, "exceeds", "exceed")} them, so those rows are rated against #{Plural.count(usable, "core")}.")
        end

        def contention(rows)
          heavy = rows.select { |r| r["contention"] }
          lines = heavy.first(SHOWN).map do |r|
            "CONTENTION: #{label(r)}: #{r["model"]} burned #{format("%.2f×", r["cpu_cost"])} serial's CPU for the same work " \
              "(#{format("%.2f", r["cpu_seconds"])} s vs #{format("%.2f", r["baseline_cpu_seconds"])} s user+system, medians of " \
              "#{r["samples"]} and #{r["baseline_samples"]} runs): the time went into contention inside the Ruby VM or the OS, not into the work"
          end
          lines << "  ... and #{heavy.size - SHOWN} more" if heavy.size > SHOWN
          lines
        end

        def settings(rows)
          pairs = rows.filter_map { |r| [r["ruby"], r["settings"]] if r["settings"] }.uniq
          return nil if pairs.empty?

          "Interpreter settings: " + pairs.map { |ruby, s| "#{ruby}: #{s}" }.join("; ")
        end

        def label(row)
          "#{row["workload"]}#{" (#{row["params"]})" if row["params"]} W=#{row["workers"]} M=#{row["messages"]} #{row["ruby"]}"
        end

        # "93% of 2" - the cores the speedup is rated against.
        def efficiency_cell(row)
          e = row["parallel_efficiency"]
          e ? format("%.0f%% of %d", e * 100, row["cores_used"]) : "-"
        end

        # "2.61× !" when the model burned more than the contention threshold.
        def cpu_cost_cell(row)
          c = row["cpu_cost"]
          return "-" unless c

          format("%.2f×", c) + (row["contention"] ? " !" : "")
        end
      end
    end
  end
end
