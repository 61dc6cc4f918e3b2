# frozen_string_literal: true

require_relative "../ractorbench/harness/async_subject"

module Ractorbench
  module Subjects
    # Concurrently's call_nonblock: start the proc in a fiber now; its
    # result if it finished without waiting, else the task to await.
    module ConprocCallNonblock
      extend Harness::AsyncSubject
      subject "conproc-call-nonblock", seed: "conproc.call_nonblock", ran: "t = task.async { }; t.completed? ? t.result : t", model: "fibers"

      def self.prepare
        ran = 0
        task = @task
        body = proc { ran += 1 }
        @run = lambda do |batch|
          batch.each do
            evaluation = task.async(&body)
            evaluation.completed? ? evaluation.result : evaluation
          end
        end
        counted { ran }
      end

      def self.run(batch)
        @run.call(batch)
      end
    end
  end
end
