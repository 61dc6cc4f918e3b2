# frozen_string_literal: true

require_relative "watchdog_process"

module Ractorbench
  module Measure
    # The collector's side of the watchdog (WatchdogProcess): started with
    # the first child, told of each child as it starts and ends. If the
    # collector dies, even by SIGKILL, the child in flight and all it started
    # die with it, within moments, instead of running on past its timeout.
    # Started again if something killed it.
    module Watchdog
      @lock = Mutex.new
      @guarded = {}

      module_function

      # A child just started: pid, its RunCgroup (or nil), its mark.
      def guard(pid, cgroup, mark)
        line = "+ #{pid} #{cgroup&.path || "-"} #{mark}\n"
        @lock.synchronize do
          @guarded[pid] = line
          tell(line)
        end
      end

      # The child has ended and its tree is dead.
      def release(pid)
        @lock.synchronize do
          @guarded.delete(pid)
          tell("- #{pid}\n")
        end
      end

      # The watchdog's pid while it runs: a child of ours that is no run's.
      def pid = @waiter&.alive? ? @pid : nil

      # Sends a line, starting the watchdog first if it is not running (a
      # new one is told every child in flight).
      def tell(line)
        if @waiter&.alive?
          begin
            return @input.write(line)
          rescue IOError, SystemCallError
            nil # it died meanwhile: another one is started
          end
        end
        @input.write(@guarded.values.join) if start
      rescue IOError, SystemCallError
        nil
      end

      def start
        @input&.close unless @input&.closed?
        reader, @input = IO.pipe
        @input.sync = true
        *command, options = WatchdogProcess.command
        @pid = Process.spawn(*command, **options, in: reader, out: File::NULL, err: File::NULL, pgroup: true)
        @waiter = Process.detach(@pid)
        reader.close
        true
      rescue SystemCallError
        @waiter = nil
        false
      end
    end
  end
end
