# frozen_string_literal: true

require_relative "../ractorbench/harness/async_subject"

module Ractorbench
  module Subjects
    # A proc that waits once, evaluated with call_nonblock: every start
    # returns a task (it waited), awaited after the batch.
    module WaitingCallNonblock
      extend Harness::AsyncSubject
      subject "waiting-call-nonblock", seed: "waiting conproc.call_nonblock", ran: "task.async { yield } a batch, then Task#wait each", model: "fibers"

      def self.prepare
        ran = 0
        task = @task
        scheduler = Fiber.scheduler
        body = proc do
          scheduler.yield
          ran += 1
        end
        @run = lambda do |batch|
          evaluations = batch.map do
            evaluation = task.async(&body)
            evaluation.completed? ? evaluation.result : evaluation
          end
          evaluations.each { |e| e.wait if e.is_a?(::Async::Task) }
        end
        counted { ran }
      end

      def self.run(batch)
        @run.call(batch)
      end
    end
  end
end
