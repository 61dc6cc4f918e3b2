# frozen_string_literal: true

require "io/wait"
require_relative "watchdog_process"

module Ractorbench
  module Measure
    # Tells a stop the user asked for from a signal a run sent. Ruby does not
    # say who sent a signal, but the user's ways of stopping a collection
    # reach its whole process group (Ctrl-C and a closed terminal from the
    # kernel, `kill %1`, `timeout`, a CI runner cancelling its job), while a
    # run that signals its collector (`Process.kill(:TERM, Process.ppid)`)
    # reaches it alone. So a small process stays in the collector's group
    # (WatchdogProcess.sentinel) and reports each signal it gets: one the
    # collector got and the sentinel did not was sent to the collector alone.
    # A user can do that too (`kill PID`), so the Collector stops on it the
    # first time and names it; only a run that does it again is failed.
    # Started once a process, again if something killed it.
    module Sentinel
      STOPS = WatchdogProcess::STOPS
      # How long the sentinel may take to report a group's signal.
      WITHIN = 1.0
      STARTUP = 5.0
      @lock = Mutex.new

      module_function

      # Started before each run (a run may have killed it); old reports dropped.
      def ready
        @lock.synchronize do
          start unless @waiter&.alive?
          drain
        end
      end

      # Whether the sentinel got signal `name` too (within WITHIN seconds).
      def heard?(name)
        @lock.synchronize { @reports ? listen_for(name, WITHIN) : false }
      end

      def pid = @waiter&.alive? ? @pid : nil

      # Reads reports until `word` is among them, for at most `seconds`.
      def listen_for(word, seconds)
        @heard = []
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
        until @heard.include?(word)
          left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
          break unless left.positive? && @reports.wait_readable(left) && drain
        end
        @heard.include?(word)
      end

      # Reads what is there; false at the end of the pipe.
      def drain
        return false unless @reports

        text = @reports.read_nonblock(4096, exception: false)
        return true if text == :wait_readable
        return false if text.nil?

        (@heard ||= []).concat(text.split)
        true
      rescue IOError, SystemCallError
        false
      end

      # Started, and waited for until it listens (a few milliseconds; at
      # most STARTUP seconds).
      def start
        [@input, @reports].each { |io| io.close if io && !io.closed? }
        reader, @input = IO.pipe
        @reports, writer = IO.pipe
        *command, options = WatchdogProcess.command("sentinel")
        @pid = Process.spawn(*command, **options, in: reader, out: writer, err: File::NULL)
        @waiter = Process.detach(@pid)
        [reader, writer].each(&:close)
        listen_for(WatchdogProcess::READY, STARTUP)
      rescue SystemCallError
        @waiter = @reports = nil
      end
    end
  end
end
