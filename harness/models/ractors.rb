# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # The seed's "pipe" design: workers pull jobs from a coordinator ractor,
    # so fast workers take more. The seed's pipe used Ractor.yield/take,
    # which Ruby 4.0 removed; this coordinator uses send/receive only, so
    # one implementation runs on 3.x and 4.x.
    module Ractors
      extend Harness::Model
      model "ractors", "W ractors pulling jobs from a coordinator ractor (the pipe of How Fast are Ractors?)", family: "ractor", shape: "messages",
        vouched_by: %w[ractor]

      def self.unsupported_reason
        "this Ruby has no Ractor" unless Harness::RactorCompat.available?
      end

      def self.run(workload, jobs, workers)
        compat = Harness::RactorCompat
        results = compat.new_channel
        coordinator = Ractor.new(workers, name: "coordinator") { |count| Coordinator.serve(count) }
        pool = Array.new(workers) do |i|
          Ractor.new(coordinator, results, workload, name: "worker-#{i}") do |coord, out, wl|
            Coordinator.work(coord, out, wl)
          end
        end
        jobs.each { |job| coordinator.send(job) }
        coordinator.send(Coordinator::NO_MORE_JOBS)
        collected = Array.new(jobs.size) { Harness::ResultMessage.unwrap(compat.receive(results)) }
        jobs_done, costs = pool.map { |r| compat.value(r) }.transpose
        record_jobs(jobs_done)
        Harness::RunCost.report_workers(costs + [compat.value(coordinator)])
        collected
      end

      # Runs inside the coordinator and worker ractors.
      module Coordinator
        NO_MORE_JOBS = :no_more_jobs

        # Matches waiting jobs with idle workers; once jobs run out, tells
        # each idle worker to stop (nil), then ends with what it cost. Hands
        # out nothing until every worker has asked once: the first ractor to
        # start would otherwise take short job after short job while the
        # others are still starting.
        def self.serve(workers)
          mark = Harness::RunCost.worker_start
          jobs = []
          idle = []
          finished = false
          all_started = false
          stopped = 0
          while stopped < workers
            message = Ractor.receive
            if message == NO_MORE_JOBS
              finished = true
            elsif message.is_a?(Ractor)
              idle << message
            else
              jobs << message
            end
            all_started ||= idle.size == workers
            while all_started && (worker = idle.first) && (!jobs.empty? || finished)
              idle.shift
              job = jobs.shift
              worker.send(job)
              stopped += 1 if job.nil?
            end
          end
          Harness::RunCost.worker_finish(mark)
        end

        # Returns how many jobs this worker did and what it cost.
        def self.work(coordinator, out, workload)
          mark = Harness::RunCost.worker_start
          me = Ractor.current
          done = 0
          loop do
            coordinator.send(me)
            job = Ractor.receive
            break if job.nil?

            out.send(Harness::ResultMessage.call { workload.work(job) })
            done += 1
          end
          [done, Harness::RunCost.worker_finish(mark)]
        end
      end
    end
  end
end
