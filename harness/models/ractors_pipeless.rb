# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # The seed's "pipeless" design: main pushes M jobs straight into each
    # worker's mailbox (a static split, shares differing by at most one
    # job), workers send results back, one message a job.
    module RactorsPipeless
      extend Harness::Model
      model "ractors-pipeless", "W ractors, main sends each its share of jobs directly", family: "ractor", shape: "messages",
        vouched_by: %w[ractor]

      def self.unsupported_reason
        "this Ruby has no Ractor" unless Harness::RactorCompat.available?
      end

      def self.run(workload, jobs, workers)
        compat = Harness::RactorCompat
        results = compat.new_channel
        pool = Array.new(workers) do |i|
          Ractor.new(results, workload, name: "worker-#{i}") do |out, wl|
            mark = Harness::RunCost.worker_start
            done = 0
            while (job = Ractor.receive)
              out.send(Harness::ResultMessage.call { wl.work(job) })
              done += 1
            end
            [done, Harness::RunCost.worker_finish(mark)]
          end
        end
        Harness::Shares.split(jobs, workers).each_with_index { |share, i| share.each { |job| pool[i].send(job) } }
        pool.each { |r| r.send(nil) }
        collected = Array.new(jobs.size) { Harness::ResultMessage.unwrap(compat.receive(results)) }
        jobs_done, costs = pool.map { |r| compat.value(r) }.transpose
        record_jobs(jobs_done)
        Harness::RunCost.report_workers(costs)
        collected
      end
    end
  end
end
