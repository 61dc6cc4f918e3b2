# frozen_string_literal: true

require_relative "../rubies/interpreter_settings"
require_relative "vm_serialisation"

module Ractorbench
  class Analysis
    # What a speedup means on this machine, and what it cost:
    #
    # - parallel efficiency = speedup / min(workers, usable cores), where
    #   usable cores honours the affinity mask and a cgroup CPU quota (the
    #   seed's container anomaly is a quota below the visible cores);
    # - CPU cost = the model's CPU seconds (user + system) / serial's, for the
    #   same work. Parallelism should add little CPU; far more means the time
    #   went into contention inside the Ruby VM or the OS, not into the work
    #   (seed 003 saw ractors take 5-8x the CPU of threads in containers).
    module Efficiency
      CONTENTION = 1.5
      # Below this much extra CPU the excess is start-up (Ruby's boot,
      # forking workers), not contention, however large the ratio.
      MIN_EXCESS_SECONDS = 0.1

      module_function

      def ractor?(group) = group.traits.family(group.model) == "ractor"

      def row(group, header)
        usable = header.machine.usable_cores.to_i
        cores = usable.positive? ? [group.workers.to_i, usable].min : nil
        {
          "usable_cores" => (usable if usable.positive?),
          "cores_used" => cores,
          "oversubscribed" => usable.positive? && group.workers.to_i > usable,
          "parallel_efficiency" => efficiency(group, cores),
          "cpu_cost" => (cost = cpu_cost(group)),
          "baseline_cpu_seconds" => (group.baseline.cpu_seconds.median if cost),
          "baseline_samples" => (group.baseline.cpu_seconds.n if cost),
          "contention" => cost ? contention?(group, cost) : nil,
          # This row runs ractors on a Ruby whose VM serialises them.
          "vm_serialises" => ractor?(group) && Analysis::VmSerialisation.names(header).include?(group.ruby),
          "settings" => settings(group, header)
        }
      end

      def efficiency(group, cores)
        return nil if group.baseline_model? || cores.nil? || group.speedup.nil?

        group.speedup / cores
      end

      def cpu_cost(group)
        return nil if group.baseline_model? || group.baseline.nil?

        base = group.baseline.cpu_seconds.median
        mine = group.cpu_seconds.median
        (base&.positive? && mine) ? mine / base : nil
      end

      def contention?(group, cost)
        cost > CONTENTION && group.cpu_seconds.median - group.baseline.cpu_seconds.median >= MIN_EXCESS_SECONDS
      end

      def settings(group, header)
        target = header.ruby(group.ruby)
        target && Rubies::InterpreterSettings.new(target).label
      end
    end
  end
end
