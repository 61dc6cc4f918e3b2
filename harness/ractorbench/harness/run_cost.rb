# frozen_string_literal: true

require_relative "fields"

module Ractorbench
  module Harness
    # What a run cost beyond its time, read by the child about itself and its
    # workers: page faults (minor: a page mapped or copied on write; major:
    # read from disk), context switches (voluntary: the thread waited;
    # involuntary: the kernel took the CPU away), Ruby objects allocated, and
    # garbage collections with their time. Faults and switches come from
    # /proc; nil where it is missing, never a guess. A reading never fails
    # the run: a work that closes file descriptors it did not open (0-10,
    # say) can close the one a reading had open (IOError), and the figure
    # is then nil, not a failure blamed on ractorbench's own line.
    #
    # Faults in /proc/self/stat are the whole process's, its ended threads
    # included, plus reaped children's (cminflt/cmajflt): forked workers count
    # once the model has waited for them. Context switches are per thread in
    # /proc and no file shows a per-process sum, so the child adds up the
    # threads alive at the end of the run (new ones whole, older ones by their
    # growth) and the workers' own reports for threads and processes that
    # were gone by then (`worker_start` / `worker_finish`). A forked worker
    # also reports its allocations and collections, which its parent's
    # counters cannot see; threads and ractors share the process's (Ruby 4.0
    # adds a ractor's allocations to it in batches, at GC, so a ractor model's
    # count can fall short by a few percent).
    module RunCost
      STAT = "/proc/self/stat"
      TASKS = "/proc/self/task"

      # GC.stat names its keys on its first call, with no lock: two ractors
      # making the process's first call at once can find the first name set
      # and the others not yet, and one raises "unknown key:
      # total_allocated_objects" (Ruby 4.0's gc/default.c, seen once in CI
      # with creation=timed). The first call is made here, in the main
      # ractor, as the child loads this file, before any worker exists.
      GC.stat(:count)

      module_function

      # Child side, just before the measured span.
      def start
        @reported = []
        {faults: faults, tasks: task_switches, allocated: allocated, gc_count: GC.count, gc_time: gc_time_ms, cpu: cpu_seconds}
      end

      # CPU seconds of this process's threads and of its reaped children
      # (forked workers count once the model has waited for them).
      def cpu_seconds
        times = Process.times
        Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) + times.cutime + times.cstime
      end

      # Models call this with what their workers reported.
      def report_workers(reports)
        (@reported ||= []).concat(reports.compact)
      end

      # Child side, just after the measured span: the run's cost figures.
      def finish(before)
        cpu = cpu_seconds
        faults_after = faults
        gc_time = gc_time_ms
        workers = @reported || []
        faults = faults_after.zip(before[:faults]).map { |a, b| a - b } if faults_after && before[:faults]
        voluntary, involuntary = switches(before[:tasks], task_switches, workers)
        Fields::Record.new(:child, "the run's costs (RunCost)").merge!(
          # The timed work's own CPU, without Ruby's start-up and the rest.
          "messages_cpu" => (cpu - before[:cpu]).round(6),
          "minor_faults" => faults && faults[0] + faults[1],
          "major_faults" => faults && faults[2] + faults[3],
          "voluntary_switches" => voluntary,
          "involuntary_switches" => involuntary,
          "allocated_objects" => allocated - before[:allocated] + workers.sum { |w| w[:allocated].to_i },
          "gc_count" => GC.count - before[:gc_count] + workers.sum { |w| w[:gc_count].to_i },
          "gc_time_ms" => gc_time && before[:gc_time] && gc_time - before[:gc_time] + workers.sum { |w| w[:gc_time].to_i }
        )
      end

      # In a worker (thread, ractor or forked process), as it starts.
      def worker_start
        tid, counts = thread_switches
        {tid: tid, counts: counts, allocated: allocated, gc_count: GC.count, gc_time: gc_time_ms}
      end

      # In the same worker as it ends: its thread's switches, and for a
      # forked worker (forked: true) its own allocations and collections.
      def worker_finish(mark, forked: false)
        tid, counts = thread_switches
        report = {tid: tid}
        # A ractor under the M:N scheduler may have moved to another native
        # thread: its growth on either thread means nothing then.
        if counts && mark[:counts] && tid == mark[:tid]
          report[:voluntary] = counts[0] - mark[:counts][0]
          report[:involuntary] = counts[1] - mark[:counts][1]
        end
        if forked
          report[:allocated] = allocated - mark[:allocated]
          report[:gc_count] = GC.count - mark[:gc_count]
          report[:gc_time] = (time = gc_time_ms) && mark[:gc_time] && time - mark[:gc_time]
        end
        report
      end

      def allocated
        GC.stat(:total_allocated_objects)
      end

      # GC time in ms (GC.stat[:time], Ruby >= 3.1), or nil.
      def gc_time_ms
        GC.stat[:time]
      end

      # [minflt, cminflt, majflt, cmajflt] of this process, or nil.
      def faults
        fields = File.read(STAT).split(")").last.split
        fields.values_at(7, 8, 9, 10).map { |f| Integer(f) }
      rescue SystemCallError, IOError, ArgumentError, TypeError
        nil
      end

      # {thread id => [voluntary, involuntary]} of every live thread, or nil.
      def task_switches
        Dir.children(TASKS).each_with_object({}) do |tid, all|
          counts = switches_in("#{TASKS}/#{tid}/status")
          all[tid.to_i] = counts if counts
        end
      rescue SystemCallError, IOError
        nil
      end

      # [thread id, [voluntary, involuntary]] of the calling native thread.
      def thread_switches
        tid = File.readlink("/proc/thread-self").split("/").last.to_i
        [tid, switches_in("/proc/thread-self/status")]
      rescue SystemCallError, IOError
        [nil, nil]
      end

      def switches_in(path)
        voluntary = involuntary = nil
        File.foreach(path) do |line|
          if line.start_with?("voluntary_ctxt_switches:")
            voluntary = line.split[1].to_i
          elsif line.start_with?("nonvoluntary_ctxt_switches:")
            involuntary = line.split[1].to_i
          end
        end
        voluntary && involuntary && [voluntary, involuntary]
      rescue SystemCallError, IOError
        nil
      end

      # Live threads' growth, plus the reports of workers whose thread (or
      # process) was gone by the end; nil if one of those could not count.
      def switches(before, after, workers)
        return [nil, nil] unless before && after

        totals = [0, 0]
        after.each do |tid, counts|
          base = before.fetch(tid, [0, 0])
          totals[0] += counts[0] - base[0]
          totals[1] += counts[1] - base[1]
        end
        workers.each do |report|
          next if report[:tid] && after.key?(report[:tid])
          return [nil, nil] unless report[:voluntary]

          totals[0] += report[:voluntary]
          totals[1] += report[:involuntary]
        end
        totals
      end
    end
  end
end
