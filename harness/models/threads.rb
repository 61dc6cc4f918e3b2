# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # W threads pull from one Thread::Queue; the GVL lets one run Ruby at a time.
    module Threads
      extend Harness::Model
      model "threads", "W threads pulling jobs from a Thread::Queue", family: "thread", shape: "queue", vouched_by: %w[threads], pattern: <<~RUBY
        queue = Thread::Queue.new
        ITEMS.each_with_index { |item, i| queue << [item, i] }
        queue.close
        results = Array.new(ITEMS.size)
        Array.new(WORKERS) do
          Thread.new do
            while (job = queue.pop)
              results[job[1]] = WORK(job[0])
            end
          end
        end.each(&:join)
      RUBY

      def self.run(workload, jobs, workers)
        queue = Thread::Queue.new
        jobs.each { |job| queue << job }
        queue.close
        gate = Harness::StartGate.new(workers)
        threads = Array.new(workers) do
          Thread.new do
            mark = Harness::RunCost.worker_start
            done = []
            job = queue.pop
            gate.arrive
            while job
              done << workload.work(job)
              job = queue.pop
            end
            [done, Harness::RunCost.worker_finish(mark)]
          end
        end
        per_worker, costs = threads.map(&:value).transpose
        Harness::RunCost.report_workers(costs)
        record_jobs(per_worker.map(&:size))
        per_worker.flatten(1)
      end
    end
  end
end
