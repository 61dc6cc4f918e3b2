# frozen_string_literal: true

require_relative "../ractorbench/harness/async_subject"

module Ractorbench
  module Subjects
    # Concurrently's call_detached as in the seed's third table: schedule
    # a batch of procs, then await each evaluation's result.
    module ConprocCallDetachedAwait
      extend Harness::AsyncSubject
      subject "conproc-call-detached-await", seed: "conproc.call_detached (awaited)", ran: "Async::Task.new + scheduler.push; Task#wait each", model: "fibers"

      def self.prepare
        ran = 0
        task = @task
        body = proc { ran += 1 }
        @run = ->(batch) { batch.map { detach(task, body) }.each(&:wait) }
        counted { ran }
      end

      def self.run(batch)
        @run.call(batch)
      end
    end
  end
end
