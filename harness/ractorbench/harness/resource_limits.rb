# frozen_string_literal: true

require_relative "memory"
require_relative "task_room"

module Ractorbench
  module Harness
    # When the OS refuses a new thread, ractor or process, the bare error
    # ("can't create Thread: Resource temporarily unavailable") does not say
    # which of several limits was hit. This names the likeliest one, with the
    # figures, so the failed run tells the user which knob to turn.
    module ResourceLimits
      # The limit the OS enforced, as raised in place of the bare error.
      class Reached < StandardError; end

      # Ruby 3.x raises ThreadError ("can't create Thread") when the OS refuses
      # a thread's stack; Ruby 4.0 raises NoMemoryError ("failed to allocate
      # memory") for the same refusal.
      REFUSALS = [ThreadError, Errno::EAGAIN, Errno::ENOMEM, NoMemoryError].freeze

      module_function

      # Runs the block that creates units; turns a refusal into Reached.
      def guard(what)
        yield
      rescue *REFUSALS => e
        raise if e.is_a?(ThreadError) && !e.message.include?("can't create")

        raise Reached, "#{e.class}: #{e.message} while creating #{what}: #{explain}"
      end

      def explain
        facts = limits
        culprit = facts.find { |f| f[:exhausted] }
        known = facts.map { |f| "#{f[:name]} #{f[:value]}#{" (in use: #{f[:used]})" if f[:used]}" }.join(", ")
        lead = culprit ? "limit reached: #{culprit[:name]} (#{culprit[:hint]})" : "no limit below was exhausted, so probably memory for thread stacks"
        "#{native_threads || "?"} native threads in this process; #{lead}; limits: #{known}"
      end

      # Every limit that caps threads or processes, most specific first.
      def limits
        facts = []
        vm_kb = Memory.status_field("VmSize")
        as = rlimit(:AS)
        # Within a fifth of the limit counts as reached: by the time we look,
        # threads that did start may already have released their stacks.
        facts << fact("RLIMIT_AS", as && "#{as / 1024} KB", vm_kb && "#{vm_kb} KB", as && vm_kb && vm_kb * 1024 > as * 0.8,
          "ulimit -v: each thread needs stack address space")
        TaskRoom.cgroup_limits.each do |cgroup|
          facts << fact(cgroup.name, cgroup.value, cgroup.used, cgroup.used >= cgroup.value - 1, "the container's task limit")
        end
        nproc = rlimit(:NPROC)
        facts << fact("RLIMIT_NPROC", nproc || "unlimited", nil, nproc && Process.uid != 0 && native_threads.to_i >= nproc - 1,
          "ulimit -u: counts every thread and process of user #{Process.uid}#{" (not enforced for root)" if Process.uid.zero?}")
        max_map = TaskRoom.read_int("/proc/sys/vm/max_map_count")
        maps = count_lines("/proc/self/maps")
        facts << fact("vm.max_map_count", max_map, maps, max_map && maps && maps >= max_map - 16, "two memory maps per thread stack")
        tasks = TaskRoom.system_tasks
        threads_max = TaskRoom.read_int("/proc/sys/kernel/threads-max")
        facts << fact("kernel.threads-max", threads_max, tasks, threads_max && tasks && tasks >= threads_max - 16, "threads on the whole system")
        pid_max = TaskRoom.read_int("/proc/sys/kernel/pid_max")
        facts << fact("kernel.pid_max", pid_max, tasks, pid_max && tasks && tasks >= pid_max - 16, "task ids on the whole system")
        facts.select { |f| f[:value] }
      end

      def fact(name, value, used, exhausted, hint)
        {name: name, value: value, used: used, exhausted: exhausted ? true : false, hint: hint}
      end

      def rlimit(resource)
        soft, = Process.getrlimit(resource)
        (soft == Process::RLIM_INFINITY) ? nil : soft
      rescue ArgumentError, NotImplementedError, Errno::EINVAL
        nil
      end

      def native_threads
        Memory.status_field("Threads")
      end

      def count_lines(path)
        File.foreach(path).count
      rescue SystemCallError
        nil
      end
    end
  end
end
