# frozen_string_literal: true

require_relative "../ractorbench/harness/async_subject"

module Ractorbench
  module Subjects
    # Concurrently's call_detached as in the seed's first table: schedule
    # the proc (a task that starts on the loop's next turn), then wait 0
    # once a batch so the scheduled tasks run.
    module ConprocCallDetached
      extend Harness::AsyncSubject
      subject "conproc-call-detached", seed: "conproc.call_detached", ran: "Async::Task.new + scheduler.push; wait 0 a batch", model: "fibers"

      def self.prepare
        ran = 0
        task = @task
        scheduler = Fiber.scheduler
        body = proc { ran += 1 }
        @run = lambda do |batch|
          batch.each { detach(task, body) }
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
