# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # W threads pull from one Thread::Queue; the GVL lets one run Ruby at a time.
    module Threads
      extend Harness::Model
      model "threads", "W threads pulling jobs from a Thread::Queue", family: "thread"

      def self.run(workload, jobs, workers)
        queue = Thread::Queue.new
        jobs.each { |job| queue << job }
        queue.close
        threads = Array.new(workers) do
          Thread.new do
            done = []
            while (job = queue.pop)
              done << workload.work(job)
            end
            done
          end
        end
        threads.flat_map(&:value)
      end
    end
  end
end
