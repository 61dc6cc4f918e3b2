# frozen_string_literal: true

require_relative "../ractorbench/harness/async_subject"

module Ractorbench
  module Subjects
    # A proc that waits once (wait 0), evaluated with call: started now,
    # its result synchronised at once.
    module WaitingCall
      extend Harness::AsyncSubject
      subject "waiting-call", seed: "waiting conproc.call", ran: "task.async { yield }.wait", model: "fibers"

      def self.prepare
        ran = 0
        task = @task
        scheduler = Fiber.scheduler
        body = proc do
          scheduler.yield
          ran += 1
        end
        @run = ->(batch) { batch.each { task.async(&body).wait } }
        counted { ran }
      end

      def self.run(batch)
        @run.call(batch)
      end
    end
  end
end
