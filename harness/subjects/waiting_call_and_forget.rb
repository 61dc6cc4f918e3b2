# frozen_string_literal: true

require_relative "../ractorbench/harness/async_subject"

module Ractorbench
  module Subjects
    # A proc that waits once, evaluated with call_and_forget: a batch of
    # bare scheduled fibers, then wait 0.
    module WaitingCallAndForget
      extend Harness::AsyncSubject
      subject "waiting-call-and-forget", seed: "waiting conproc.call_and_forget", ran: "scheduler.push(Fiber.new { yield }); wait 0 a batch", model: "fibers"

      def self.prepare
        ran = 0
        scheduler = Fiber.scheduler
        body = proc do
          scheduler.yield
          ran += 1
        end
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
