# frozen_string_literal: true

require_relative "subject"
require_relative "async_support"

module Ractorbench
  module Harness
    # What the subjects run under async's Fiber::Scheduler share: the
    # reactor their loop runs in (its root task is `@task`), the skip when
    # async cannot load, and the two ways Concurrently started a proc later.
    #
    # Concurrently's `wait 0` ("resume me on the loop's next turn") is
    # `Fiber.scheduler.yield` here (Async::Task#yield).
    module AsyncSubject
      include Subject

      def unsupported_reason = AsyncSupport.unsupported_reason

      def gc_off_problem
        "a finished async task's fiber keeps its stack mapped until GC frees the fiber; " \
          "with GC off the process exhausts its memory mappings (vm.max_map_count) after ~30,000 tasks"
      end

      def within
        AsyncSupport.run do |task|
          @task = task
          yield
        end
      end

      # call_detached and call_and_forget only schedule their proc; the
      # last batch's may still wait for the loop when the clock stops.
      def settle(expected)
        scheduler = Fiber.scheduler
        10_000.times do
          break if count >= expected

          scheduler.yield
        end
      end

      private

      # call_detached: a task (the evaluation to await) that starts on the
      # loop's next turn instead of at once, as Async::Task#async would.
      def detach(parent, body)
        task = ::Async::Task.new(parent, &body)
        Fiber.scheduler.push(DeferredStart.new(task))
        task
      end

      # call_and_forget: no task and no result, just a non-blocking fiber
      # the loop resumes on its next turn.
      def forget(body)
        Fiber.scheduler.push(Fiber.new(&body))
      end

      # The scheduler's ready queue resumes anything that answers alive?
      # and transfer; async's own Stop::Later works the same way.
      DeferredStart = Struct.new(:task) do
        def alive? = true

        def transfer
          task.run
        end
      end
    end
  end
end
