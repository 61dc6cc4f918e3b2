# frozen_string_literal: true

require_relative "../ractorbench/harness/async_subject"

module Ractorbench
  module Subjects
    # Concurrently's call: start the proc in a fiber now and wait for its
    # result.
    module ConprocCall
      extend Harness::AsyncSubject
      subject "conproc-call", seed: "conproc.call", ran: "task.async { }.wait", model: "fibers"

      def self.prepare
        ran = 0
        task = @task
        body = proc { ran += 1 }
        @run = ->(batch) { batch.each { task.async(&body).wait } }
        counted { ran }
      end

      def self.run(batch)
        @run.call(batch)
      end
    end
  end
end
