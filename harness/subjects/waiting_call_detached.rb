# frozen_string_literal: true

require_relative "../ractorbench/harness/async_subject"

module Ractorbench
  module Subjects
    # A proc that waits once, evaluated with call_detached: a batch of
    # scheduled tasks, then each awaited.
    module WaitingCallDetached
      extend Harness::AsyncSubject
      subject "waiting-call-detached", seed: "waiting conproc.call_detached", ran: "Async::Task.new { yield } + scheduler.push; Task#wait each", model: "fibers"

      def self.prepare
        ran = 0
        task = @task
        scheduler = Fiber.scheduler
        body = proc do
          scheduler.yield
          ran += 1
        end
        @run = ->(batch) { batch.map { detach(task, body) }.each(&:wait) }
        counted { ran }
      end

      def self.run(batch)
        @run.call(batch)
      end
    end
  end
end
