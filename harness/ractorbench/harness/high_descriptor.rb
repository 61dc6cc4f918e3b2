# frozen_string_literal: true

module Ractorbench
  module Harness
    # The harness's own descriptors, moved out of the way of a run's code
    # that closes descriptors by number (`(0..10).each { |fd| IO.for_fd(fd).close }`),
    # which then closes nothing of ours: each moved to the lowest free
    # descriptor from the floor, or opened while the descriptors below it
    # are taken.
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

      # Runs the block with every free descriptor below the floor taken by a
      # placeholder, so that what a library opens meanwhile (a Fiber
      # scheduler's epoll and wake-up descriptors) lands above it. The block
      # is given a proc that frees them, to call once its own are open and
      # before the run's code runs; they are freed when it returns anyway.
      def opening_above
        placeholders = []
        free = -> { placeholders.each(&:close).clear }
        begin
          placeholders << File.open(File::NULL) until placeholders.last&.fileno.to_i >= floor - 1
        rescue SystemCallError
          nil # as many as could be opened
        end
        yield free
      ensure
        free&.call
      end

      # FLOOR, or half the descriptor limit if that is lower: room is left
      # above it for the run's own.
      def floor = [FLOOR, Process.getrlimit(:NOFILE).first / 2].min
    end
  end
end
