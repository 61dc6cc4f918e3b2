# frozen_string_literal: true

require_relative "../base/libc"

module Ractorbench
  module Measure
    # While a child runs, this process is a child subreaper (Linux
    # prctl(PR_SET_CHILD_SUBREAPER)): a process of the run whose parent exits
    # — the classic double fork of a daemon, or a setsid'd grandchild — is
    # re-parented to us rather than to init, so the run's tree stays one tree
    # (ProcessTree walks it by parent) whatever its members do to their
    # session, environment or file descriptors. Only while a child runs:
    # a program that embeds ractorbench (Ractorbench.run) keeps its own
    # orphans' fate the rest of the time. Through Fiddle; without it, or
    # off Linux, nothing changes (the run's cgroup, its mark and its pipes
    # still find its processes).
    module Subreaper
      PR_SET_CHILD_SUBREAPER = 36
      @lock = Mutex.new
      @holders = 0

      module_function

      # Runs the block as a subreaper (nested and concurrent calls share it).
      def hold
        @lock.synchronize { set(1) if (@holders += 1) == 1 }
        yield
      ensure
        @lock.synchronize { set(0) if (@holders -= 1).zero? }
      end

      # Whether prctl is reachable here.
      def available? = !prctl.nil?

      def set(value)
        prctl&.call(PR_SET_CHILD_SUBREAPER, value, 0, 0, 0)
      end

      def prctl
        return @prctl if defined?(@prctl)

        @prctl = LibC.function("prctl", [:int] + [:long] * 4, :int)
      end
    end
  end
end
