# frozen_string_literal: true

require_relative "../../analysis/rows"
require_relative "../../plan/configuration"
require_relative "../../base/plural"
require_relative "format"

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
          [efficiency(rows), *contention(rows), *split(rows), settings(rows)].compact
        end

        def efficiency(rows)
          rated = rows.select { |r| r.parallel_efficiency }
          return nil if rated.empty?

          usable = rated.first.usable_cores
          over = rated.select { |r| r.oversubscribed }.map { |r| r.workers }.uniq.sort
          "Efficiency = speedup / min(W, usable cores); this machine has #{Plural.count(usable, "usable core")} (affinity mask and cgroup " \
            "CPU quota honoured)" + (over.empty? ? "." : "; W=#{over.join(", ")} #{Plural.verb(over.size, "exceeds", "exceed")} them, so those rows are rated against #{Plural.count(usable, "core")}.")
        end

        def contention(rows)
          heavy = rows.select { |r| r.contention }
          lines = heavy.first(SHOWN).map do |r|
            "CONTENTION: #{label(r)}: #{r.model} burned #{format("%.2f×", r.cpu_cost)} serial's CPU for the same work " \
              "(#{format("%.2f", r.cpu_seconds)} s vs #{format("%.2f", r.baseline_cpu_seconds)} s user+system, medians of " \
              "#{r.samples} and #{r.baseline_samples} runs): " +
              (r.vm_serialises ? "this Ruby serialises ractors inside its VM (see VM SERIALISATION)" : "the time went into contention inside the Ruby VM or the OS, not into the work")
          end
          lines << "  ... and #{heavy.size - SHOWN} more" if heavy.size > SHOWN
          lines
        end

        # Closer to the ceiling than this is "at the ceiling".
        AT_CEILING = 0.03

        # Next to a split model (each worker given its share at once, its
        # results in one), a per-job model's shortfall is what its messages
        # cost: the split's speedup is the ceiling of the work itself.
        def split(rows)
          rows.group_by(&:panel).flat_map do |_, group|
            # Each split model that declares itself the ceiling of per-job ones (Row#ceiling_of).
            group.reject { |r| r.ceiling_of.empty? }.sort_by { |r| r.model }.filter_map do |ceiling|
              next unless ceiling.speedup

              per_job = ceiling.ceiling_of
              others = group.select { |r| per_job.include?(r.model) && r.speedup }
              next if others.empty?

              "SPLIT CEILING vs PER-MESSAGE COST: #{label(ceiling)}: #{ceiling.model} #{format("%.2f×", ceiling.speedup)} is " \
                "the work's ceiling (each worker given its whole share at once, its results back in one); " +
                others.map { |r| "#{r.model} #{format("%.2f×", r.speedup)} (#{message_cost(ceiling, r)})" }.join(", ")
            end
          end
        end

        def message_cost(ceiling, row)
          share = 1 - row.speedup / ceiling.speedup
          return "at the ceiling" if share < AT_CEILING

          "per-job messages cost #{(share * 100).round}% of it" + (overlap?(ceiling, row) ? ", within the noise" : "")
        end

        def overlap?(a, b)
          x = a.speedup_ci
          y = b.speedup_ci
          x&.low && y&.low && x.low <= y.high && y.low <= x.high
        end

        def settings(rows)
          pairs = rows.filter_map { |r| [r.ruby, r.settings] if r.settings }.uniq
          return nil if pairs.empty?

          "Interpreter settings: " + pairs.map { |ruby, s| "#{ruby}: #{s}" }.join("; ")
        end

        def label(row)
          "#{Plan::Configuration.title(row.workload, row.params)} W=#{row.workers} M=#{row.messages} #{row.ruby}"
        end

        # "93% of 2" - the cores the speedup is rated against.
        def efficiency_cell(row)
          e = row.parallel_efficiency
          e ? format("%.0f%% of %d", e * 100, row.cores_used) : "-"
        end

        # "1.00× ?" when a run left a worker idle while another did several jobs.
        def speedup_cell(row)
          Format.ratio(row.speedup) + (row.idle_worker_runs.to_i.positive? ? " ?" : "")
        end

        # "2.61× !" when the model burned more than the contention threshold.
        def cpu_cost_cell(row)
          c = row.cpu_cost
          return "-" unless c

          format("%.2f×", c) + (row.contention ? " !" : "")
        end
      end
    end
  end
end
