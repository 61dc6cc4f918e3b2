# frozen_string_literal: true

module Ractorbench
  module Harness
    # The harness's own descriptors, moved out of the way of a run's code
    # that closes descriptors by number (`(0..10).each { |fd| IO.for_fd(fd).close }`),
    # which then closes nothing of ours: each moved to the lowest free
    # descriptor from the floor, or opened once the descriptors below it are
    # taken.
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
        return io if io.fileno >= floor

        moved = IO.for_fd(io.fcntl(F_DUPFD, floor), mode)
        moved.sync = io.sync
        moved.close_on_exec = io.close_on_exec?
        io.close unless keep
        moved
      rescue SystemCallError, ArgumentError, NotImplementedError
        io
      end

      # Takes every free descriptor below the floor with a placeholder, for
      # the rest of the process, so that what is opened next (a Fiber
      # scheduler's epoll and wake-up descriptors, which a library keeps by
      # number) lands above it. The first call takes them all (before the
      # measured part); a later one takes back only what the run's code has
      # closed since, so it costs one open when nothing was. The run's own
      # files land above the floor too, which changes nothing for them.
      def reserve_low
        @placeholders ||= []
        loop do
          placeholder = File.open(File::NULL)
          if placeholder.fileno >= floor
            placeholder.close
            break
          end
          @placeholders << placeholder
        end
      rescue SystemCallError
        nil # as many as could be opened
      end

      # FLOOR, or half the descriptor limit if that is lower: room is left
      # above it for the run's own.
      def floor = [FLOOR, Process.getrlimit(:NOFILE).first / 2].min
    end
  end
end
