# frozen_string_literal: true

module Ractorbench
  module Harness
    # Holds each of W workers after it has taken its first job until every
    # worker has taken one (or found none left). Threads under the GVL and
    # fibers on one thread otherwise let the first worker to run take job
    # after job before the others run at all. Mutex and ConditionVariable
    # wait through the Fiber::Scheduler too, so fibers can use it.
    class StartGate
      def initialize(workers)
        @waiting_for = workers
        @lock = Mutex.new
        @all_in = ConditionVariable.new
      end

      def arrive
        @lock.synchronize do
          @waiting_for -= 1
          if @waiting_for <= 0
            @all_in.broadcast
          else
            @all_in.wait(@lock) while @waiting_for.positive?
          end
        end
      end
    end
  end
end
