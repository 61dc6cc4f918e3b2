# frozen_string_literal: true

module Ractorbench
  module Harness
    # The harness's own descriptors, moved out of the way of a run's code
    # that closes descriptors by number (`(0..10).each { |fd| IO.for_fd(fd).close }`),
    # which then closes nothing of ours: each moved to the lowest free
    # descriptor from FLOOR (or the highest the descriptor limit allows, if
    # that is lower).
    module HighDescriptor
      # Well above the descriptors a program would close by number, and low
      # enough that the descriptor table hardly grows.
      FLOOR = 100
      # fcntl's F_DUPFD, 0 on every Unix: Fcntl is a C extension the child
      # need not load for one number.
      F_DUPFD = 0

      module_function

      # The IO on its new descriptor, opened with mode ("rb", "wb"); the same
      # IO where it cannot be moved. The original is closed unless kept.
      def move(io, mode, keep: false)
        floor = [FLOOR, Process.getrlimit(:NOFILE).first - 1].min
        return io if io.fileno >= floor

        moved = IO.for_fd(io.fcntl(F_DUPFD, floor), mode)
        moved.sync = io.sync
        moved.close_on_exec = io.close_on_exec?
        io.close unless keep
        moved
      rescue SystemCallError, ArgumentError, NotImplementedError
        io
      end
    end
  end
end
