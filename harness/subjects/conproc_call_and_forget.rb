# frozen_string_literal: true

require_relative "../ractorbench/harness/async_subject"

module Ractorbench
  module Subjects
    # Concurrently's call_and_forget: schedule the proc with no evaluation
    # object (a bare non-blocking fiber, no task), then wait 0 once a batch.
    module ConprocCallAndForget
      extend Harness::AsyncSubject
      subject "conproc-call-and-forget", seed: "conproc.call_and_forget", ran: "scheduler.push(Fiber.new { }); wait 0 a batch", model: "fibers"

      def self.prepare
        ran = 0
        scheduler = Fiber.scheduler
        body = proc { ran += 1 }
        @run = lambda do |batch|
          batch.each { forget(body) }
          scheduler.yield
        end
        counted { ran }
      end

      def self.run(batch)
        @run.call(batch)
      end
    end
  end
end
