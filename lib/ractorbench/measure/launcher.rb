# frozen_string_literal: true

require_relative "child_environment"
require_relative "limits"
require_relative "output_tail"
require_relative "process_tree"
require_relative "subreaper"
require_relative "result_channel"
require_relative "pauses"

module Ractorbench
  module Measure
    # The one way the driver starts a child of a Ruby under test: a measured
    # run (harness/child.rb), the probe (harness/probe.rb) and `try`'s check
    # (harness/try/preflight.rb). The child runs in its own process group,
    # with raised limits and the user's environment minus Bundler's; its spec
    # goes in as one Marshal dump on stdin and its records come back as
    # Marshal dumps on fd 3 (Harness::Channel), decoded as plain data only
    # (ResultChannel). At the time limit the child may first get a signal to
    # say where it was (grace); then its whole tree is killed, and so is
    # anything it started that escaped the group (ProcessTree: while a child
    # runs this process is a subreaper, the child has a cgroup of its own
    # where one can be made, and the watchdog kills it all if this process
    # dies). Once the child is reaped
    # its pipes are read for at most DRAIN seconds more: a process holding
    # them open never keeps the driver waiting.
    class Launcher
      DRAIN = 1.0

      # records: the Hashes the child sent; channel_problem: nil, or why the
      # channel held garbage; escaped: pids of processes the run left running
      # outside its group (killed); stdout/stderr: OutputTails, read.
      # measured: the seconds of the measured part, from the mark a run sends
      # when that part ends (nil for a child that sends none). stopped: the
      # seconds this process was stopped while the child ran (Pauses), not
      # in whole_time.
      Result = Struct.new(:status, :timed_out, :whole_time, :records, :channel_problem, :stdout, :stderr,
        :user, :system, :escaped, :stopped, keyword_init: true) do
        def record = records.reverse.find { |r| !r.key?(ResultChannel::MEASURED) }

        def measured = records.find { |r| r.key?(ResultChannel::MEASURED) }&.fetch(ResultChannel::MEASURED)
      end

      # script: the program's path, or the arguments that start it, script
      # last (mruby is given its libraries with -r: Rubies::ChildPrograms).
      # grace: [signal, seconds] sent to the child alone at the time limit,
      # before the kill (the try check says where it was stuck).
      def initialize(target, script, timeout:, grace: nil)
        @target = target
        @script = script
        @timeout = timeout
        @grace = grace
      end

      def call(spec) = Subreaper.hold { launch(spec) }

      private

      def launch(spec)
        tree = ProcessTree.new
        pipes = Pipes.new
        cpu_before = Process.times
        paused = Pauses.paused
        started = now
        pid = ProcessTree.spawn_own do
          Process.spawn(ChildEnvironment.for(@target).merge(tree.env), *@target.argv, *@script,
            :in => pipes.spec_r, :out => pipes.out_w, :err => pipes.err_w, 3 => pipes.result_w,
            :pgroup => true, :unsetenv_others => true, **Limits.spawn_options)
        end
        tree.adopt(pid)
        pipes.spawned(spec)
        # Its end as this process saw it, and the stops until then: a child
        # that ended while we were stopped is reaped only once we run again.
        waiter = Thread.new { [Process.wait2(pid).last, now, Pauses.paused] }
        timed_out = !Pauses.join(waiter, @timeout)
        # The limit is on the measured part: a run past it gets the same time
        # again for what follows (our own checks of its results).
        timed_out = !Pauses.join(waiter, @timeout) if timed_out && pipes.result.measured?
        warn_first(pid, waiter) if timed_out && @grace
        escaped = tree.kill(pid)
        status, ended, paused_at_end = waiter.value
        stopped = paused_at_end - paused
        pid = nil
        escaped += pipes.drain(tree)
        cpu_after = Process.times
        records, problem = decode(pipes.result)
        Result.new(status: status, timed_out: timed_out, whole_time: [ended - started - stopped, 0.0].max, records: records,
          channel_problem: problem, stdout: pipes.out, stderr: pipes.err, escaped: escaped, stopped: stopped,
          user: cpu_after.cutime - cpu_before.cutime, system: cpu_after.cstime - cpu_before.cstime)
      ensure
        # Interrupted (Ctrl-C, SIGTERM) or failed before the child was reaped:
        # nothing it started may outlive this call.
        if pid
          tree.kill(pid)
          waiter&.join(DRAIN)
        end
        tree&.release
        pipes&.close
      end

      def warn_first(pid, waiter)
        signal, seconds = @grace
        Process.kill(signal, pid)
        waiter.join(seconds)
      rescue Errno::ESRCH, Errno::EPERM
        nil
      end

      def decode(channel)
        return [[], "more than #{ResultChannel::LIMIT / 1024 / 1024} MB"] if channel.bytes_read > ResultChannel::LIMIT

        ResultChannel.decode(channel.head)
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

      # The child's stdin (the spec), stdout, stderr and result channel.
      class Pipes
        attr_reader :spec_r, :out_w, :err_w, :result_w, :out, :err, :result

        def initialize
          @spec_r, @spec_w = IO.pipe
          @out_r, @out_w = IO.pipe
          @err_r, @err_w = IO.pipe
          @result_r, @result_w = IO.pipe
          [@spec_w, @out_r, @err_r, @result_r].each(&:binmode)
        end

        # The child has them now: close our copies of its ends, start reading
        # its output, and write the spec (from a thread: a child that never
        # reads stdin must not block us on a big spec).
        def spawned(spec)
          [@spec_r, @out_w, @err_w, @result_w].each(&:close)
          @out = OutputTail.new(@out_r)
          @err = OutputTail.new(@err_r)
          @result = OutputTail.new(@result_r, keep: ResultChannel::LIMIT + 1)
          data = spec.nil? ? "" : Marshal.dump(spec)
          @writer = Thread.new do
            @spec_w.write(data)
          rescue IOError, SystemCallError
            nil
          ensure
            @spec_w.close unless @spec_w.closed?
          end
        end

        # Reads to the end, or kills what still holds the pipes (a process
        # that escaped without the run's mark) and stops; their pids.
        def drain(tree)
          readers = [@out, @err, @result]
          deadline = now + DRAIN / 4
          return [] if readers.all? { |r| r.ended_by?(deadline) }

          holders = tree.kill_holders(readers.filter_map(&:inode))
          deadline = now + DRAIN
          readers.each { |r| r.finish(deadline) }
          holders
        end

        def close
          @writer&.join(DRAIN)
          [@spec_r, @spec_w, @out_r, @out_w, @err_r, @err_w, @result_r, @result_w].each do |io|
            io.close unless io.closed?
          rescue IOError
            nil
          end
        end

        private

        def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end
    end
  end
end
