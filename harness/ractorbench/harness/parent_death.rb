# frozen_string_literal: true

module Ractorbench
  module Harness
    # A run's process dies with its collector, whatever else a run killed:
    # the watchdog (Measure::WatchdogProcess) kills the run in flight when
    # the collector dies, but a run can kill the watchdog first. So the
    # kernel is asked too (Linux's PR_SET_PDEATHSIG): SIGKILL to this
    # process the moment the thread that started it ends, which the
    # collector's does only once this process has ended. Elsewhere, or
    # without fiddle, nothing changes.
    module ParentDeath
      PR_SET_PDEATHSIG = 1

      module_function

      def arm
        return unless RUBY_PLATFORM.include?("linux")

        require "fiddle"
        prctl = Fiddle::Function.new(Fiddle::Handle::DEFAULT["prctl"], [Fiddle::TYPE_INT] + [Fiddle::TYPE_LONG] * 4, Fiddle::TYPE_INT)
        prctl.call(PR_SET_PDEATHSIG, Signal.list.fetch("KILL"), 0, 0, 0)
        # The collector died before the request: init (pid 1) adopted us.
        exit!(1) if Process.ppid == 1
      rescue LoadError, StandardError # Fiddle::DLError is a StandardError
        nil
      end
    end
  end
end
