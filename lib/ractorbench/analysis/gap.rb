# frozen_string_literal: true

require_relative "../analysis"

module Ractorbench
  class Analysis
    # Why a row's speedup falls short of the ideal, in parts a person can act
    # on. During the timed work the cores the run could use (min(W, usable))
    # spent their time three ways, which add up to the whole:
    #
    #   work      serial's own CPU time for the same jobs: the useful part, and
    #             exactly the speedup / ideal (the parallel efficiency);
    #   extra CPU CPU spent beyond serial's (contention, copy-on-write faults
    #             after fork, GC, messages), with the cost figures that grew;
    #   idle      no CPU ran at all: waiting for messages, for each other, for
    #             the GVL, or other programs on the cores.
    #
    # The CPU of the timed work is what the child measured over it
    # (messages_cpu: its threads and its reaped workers); for runs recorded
    # before it did, the run's CPU less serial's start-up CPU (serial's CPU
    # minus its single-threaded work), an estimate.
    # Apart from those, the fixed cost: whole-process time less messages-only
    # time, beyond serial's (starting Ruby, loading, forking, tearing down).
    module Gap
      module_function

      def row(group, header)
        base = group.baseline
        return {} if base.nil? || base.equal?(group) || group.speedup.nil?

        serial_work = base.messages_time.median
        time = group.messages_time.median.to_f
        measured = group.cost("messages_cpu")
        usable = header.machine.usable_cores.to_i
        cores = usable.positive? ? group.workers.to_i.clamp(1, usable) : group.workers.to_i
        capacity = time * cores
        return {} unless capacity.positive? && serial_work&.positive?

        # Faster than W times serial (noise, or caches) leaves nothing to explain.
        work = [serial_work, capacity].min
        cpu = (measured || group.cpu_seconds.median.to_f - (base.cpu_seconds.median.to_f - serial_work)).clamp(work, capacity)
        {
          "work_share" => work / capacity,
          "extra_cpu_share" => (cpu - work) / capacity,
          "idle_share" => (capacity - cpu) / capacity,
          "fixed_cost_seconds" => fixed(group) && fixed(base) && fixed(group) - fixed(base)
        }
      end

      def fixed(group)
        whole = group.whole_time.median
        messages = group.messages_time.median
        whole && messages && whole - messages
      end
    end
  end
end
