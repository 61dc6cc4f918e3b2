# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "../ractorbench/harness/async_support"

module Ractorbench
  module Models
    # W fibers under a Fiber::Scheduler (the async gem), pulling jobs from
    # one list. All of them share one thread, so Ruby code never runs in
    # parallel; what overlaps is waiting (IO, sleep), which the scheduler
    # turns into switches to another fiber. For IO-bound workloads.
    module Fibers
      extend Harness::Model
      model "fibers", "W fibers under a Fiber::Scheduler (async) pulling jobs from one list (overlaps IO waits)",
        family: "fiber", shape: "queue", pattern: <<~RUBY
          require "async"  # gem "async"
          jobs = ITEMS.each_with_index.to_a
          results = Array.new(ITEMS.size)
          Sync do |task|
            Array.new(WORKERS) do
              task.async do
                while (job = jobs.shift)
                  results[job[1]] = WORK(job[0])
                end
              end
            end.each(&:wait)
          end
        RUBY

      # Loads async here, before the clock starts, so its load time is never
      # part of a measured run.
      def self.unsupported_reason
        Harness::AsyncSupport.unsupported_reason
      end

      def self.run(workload, jobs, workers)
        pending = jobs.dup
        per_worker = nil
        Harness::AsyncSupport.run do |task|
          gate = Harness::StartGate.new(workers)
          # No lock: fibers switch only where one waits, never between the
          # empty? check and the shift.
          fibers = Array.new(workers) do
            task.async do
              done = []
              more = !pending.empty?
              job = pending.shift
              gate.arrive
              while more
                done << workload.work(job)
                more = !pending.empty?
                job = pending.shift
              end
              done
            end
          end
          per_worker = fibers.map(&:wait)
        end
        record_jobs(per_worker.map(&:size))
        per_worker.flatten(1)
      end
    end
  end
end
