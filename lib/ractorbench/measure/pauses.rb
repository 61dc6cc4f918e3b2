# frozen_string_literal: true

module Ractorbench
  module Measure
    # Time this process spent stopped while it measured: SIGSTOP to its
    # process group, Ctrl-Z until `fg`, a suspended machine. The child of a
    # run has a process group of its own and runs on meanwhile (or blocks on
    # a pipe nobody reads), so neither the wall clock nor the child's own
    # times can say what the run would have taken: a run a stop fell on is
    # marked, and a stop never counts towards its time limit.
    #
    # A clock thread ticks every TICK; a tick that comes more than GAP after
    # the one before means this process did not run meanwhile. A Ruby thread
    # wakes within milliseconds here (the main thread only waits while a run
    # is in flight), so only a stop or a machine too busy to schedule us at
    # all leaves such a gap (either way the run's own times may hold it).
    # `paused` counts a gap still open too: the first to wake after a stop
    # may be the one asking.
    module Pauses
      TICK = 0.1
      GAP = 0.5
      @lock = Mutex.new
      @paused = 0.0

      module_function

      # Seconds this process has lost to stops since the clock started.
      def paused
        start
        @lock.synchronize do
          gap = now - @last
          @paused + ((gap > GAP) ? gap - TICK : 0.0)
        end
      end

      # Waits for thread at most `seconds` of this process's running time
      # (stops not counted); whether it ended.
      def join(thread, seconds)
        started = now
        before = paused
        loop do
          left = seconds - ((now - started) - (paused - before))
          return false unless left.positive?
          return true if thread.join(left)
        end
      end

      def start
        return if @clock&.alive?

        @lock.synchronize { @last = now }
        @clock = Thread.new do
          loop do
            sleep(TICK)
            tick
          end
        end
      end

      def tick
        @lock.synchronize do
          time = now
          gap = time - @last
          @paused += gap - TICK if gap > GAP
          @last = time
        end
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
