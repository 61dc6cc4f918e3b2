# frozen_string_literal: true

require_relative "child_environment"
require_relative "output_tail"
require_relative "limits"
require_relative "interference"
require_relative "../rubies/interpreter_settings"

require_relative "../paths"

module Ractorbench
  module Measure
    # Runs one RunSpec in a fresh child process of the Ruby under test and
    # turns whatever happened into a record: the child's own measurements plus
    # what only the parent can see (whole-process time, CPU of the run's whole
    # process tree, how it ended). Runs must not overlap: CPU time is read as
    # the change in this process's reaped-children total.
    class Measure::Runner
      CHILD = File.join(HARNESS_DIR, "child.rb")

      def initialize(catalog:, timeout:)
        @catalog = catalog
        @timeout = timeout
      end

      def call(spec, target)
        settings = Rubies::InterpreterSettings.new(target)
        if (reason = settings.unsupported_reason)
          return {"status" => "unsupported", "reason" => "not supported on this Ruby: #{reason}", "settings" => settings.to_h}
        end

        spec_arg = [Marshal.dump(spec.to_h.merge("files" => @catalog.files_for(spec.workload, spec.model)))].pack("m0")
        result_r, result_w = IO.pipe
        out_r, out_w = IO.pipe
        err_r, err_w = IO.pipe
        cpu_before = Process.times
        machine_before = Measure::Interference.snapshot
        started = now
        pid = Process.spawn(Measure::ChildEnvironment.for(target), *target.argv, CHILD, spec_arg,
          3 => result_w, :out => out_w, :err => err_w, :in => File::NULL,
          :pgroup => true, :unsetenv_others => true, **Measure::Limits.spawn_options)
        [result_w, out_w, err_w].each(&:close)
        outcome = wait(pid, result_r, Measure::OutputTail.new(out_r), Measure::OutputTail.new(err_r), started)
        cpu_after = Process.times
        machine_after = Measure::Interference.snapshot
        user = cpu_after.cutime - cpu_before.cutime
        system = cpu_after.cstime - cpu_before.cstime
        outcome.merge(
          "user" => user.round(6),
          "system" => system.round(6),
          "settings" => settings.to_h
        ).merge(Measure::Interference.between(machine_before, machine_after, user + system))
      end

      private

      def wait(pid, result_r, stdout, stderr, started)
        result = Thread.new { result_r.read.tap { result_r.close } }
        waiter = Thread.new { [Process.wait2(pid).last, now] }
        timed_out = waiter.join(@timeout).nil?
        kill_group(pid) # also ends workers a crashed child left behind
        status, ended = waiter.value
        Measure::Outcome.new(status: status, whole_time: ended - started, timed_out: timed_out ? @timeout : nil,
          child: result.value, stderr: stderr).to_h
      end

      def kill_group(pid)
        Process.kill(:KILL, -pid)
      rescue Errno::ESRCH, Errno::EPERM
        nil
      end

      def now
        Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end
    end
  end
end

require_relative "outcome"
