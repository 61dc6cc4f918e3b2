# frozen_string_literal: true

require_relative "../ractorbench/harness/async_subject"

module Ractorbench
  module Subjects
    # Concurrently's wait 0 in the root evaluation: yield to the loop and
    # be resumed on its next turn.
    module Wait
      extend Harness::AsyncSubject
      subject "wait", seed: "wait", ran: "proc { Fiber.scheduler.yield }.call", model: "fibers"

      def self.prepare
        ran = 0
        scheduler = Fiber.scheduler
        test_proc = proc do
          scheduler.yield
          ran += 1
        end
        @run = ->(batch) { batch.each { test_proc.call } }
        counted { ran }
      end

      def self.run(batch)
        @run.call(batch)
      end
    end
  end
end
