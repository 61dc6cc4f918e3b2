# frozen_string_literal: true

require "rbconfig"
require_relative "proc_table"
require_relative "run_cgroup"

module Ractorbench
  module Measure
    # The watchdog itself: a small process (the driver's Ruby, no gems) that
    # outlives the collector. It reads the runs in flight on stdin, one line
    # each ("+ PID CGROUP MARK" when one starts, "- PID" when it has ended);
    # stdin's end means the collector is gone, however it went (SIGKILL
    # included: the kernel closes its pipes), and every run still in flight
    # is killed at once: its process group, its cgroup, what carries its
    # mark. In its own process group, so what stops the collector's group
    # does not stop it. Measure::Watchdog starts it.
    #
    # Started as `sentinel`, the same file is the collector's witness of who
    # stopped it (Measure::Sentinel): it stays in the collector's process
    # group and writes the name of each signal it gets on stdout, ignoring
    # it, until stdin ends (READY first, once it listens).
    module WatchdogProcess
      PASSES = 20
      SCRIPT = __FILE__
      # The signals Ruby turns into an exception in the collector (a stop).
      STOPS = %w[INT TERM HUP QUIT ALRM USR1 USR2].freeze
      READY = "READY"
      # How each is started: the driver's Ruby alone, none of the user's
      # RUBYOPT (Bundler's -rbundler/setup would slow it down by a tenth of a
      # second and more), nothing of its environment.
      def self.command(*args) = [{}, RbConfig.ruby, "--disable-gems", SCRIPT, *args, {unsetenv_others: true}]

      module_function

      def sentinel(input = $stdin, output = $stdout)
        STOPS.each do |name|
          trap(name) do
            output.syswrite("#{name}\n")
          rescue SystemCallError, IOError
            nil
          end
        end
        output.syswrite("#{READY}\n")
        input.read
      end

      def main(input = $stdin)
        %w[INT TERM HUP].each { |name| trap(name, "IGNORE") }
        runs = {}
        input.each_line do |line|
          op, pid, cgroup, mark = line.split
          (op == "+") ? runs[pid.to_i] = [cgroup, mark] : runs.delete(pid.to_i)
        end
        runs.each { |pid, (cgroup, mark)| kill(pid, (cgroup == "-") ? nil : RunCgroup.new(cgroup), mark) }
      end

      def kill(pid, cgroup, mark)
        PASSES.times do
          left = [-pid, pid].count { |target| ProcTable.signal(:KILL, target) }
          left += cgroup.kill.pids.size if cgroup
          marked = ProcTable.marked(mark)
          marked.each { |p| ProcTable.signal(:KILL, p) }
          break if left.zero? && marked.empty?

          sleep 0.05
        end
        cgroup&.remove
      end
    end
  end
end

if $PROGRAM_NAME == __FILE__
  (ARGV.first == "sentinel") ? Ractorbench::Measure::WatchdogProcess.sentinel : Ractorbench::Measure::WatchdogProcess.main
end
