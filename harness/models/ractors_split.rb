# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # W ractors, each sent its share of the jobs in one message and sending
    # all its results back in one: the work's ceiling under ractors, next to
    # `ractors` and `ractors-pipeless`, which pay a message each way per job.
    module RactorsSplit
      extend Harness::Model
      model "ractors-split", "W ractors, each sent its share of the jobs in one message, all its results back in one", family: "ractor"

      def self.unsupported_reason
        "this Ruby has no Ractor" unless Harness::RactorCompat.available?
      end

      def self.run(workload, jobs, workers)
        compat = Harness::RactorCompat
        results = compat.new_channel
        pool = Array.new(workers) do |i|
          Ractor.new(results, workload, i, name: "worker-#{i}") do |out, wl, index|
            mark = Harness::RunCost.worker_start
            share = Ractor.receive
            out.send([index, Harness::ResultMessage.call { share.map { |job| wl.work(job) } }])
            Harness::RunCost.worker_finish(mark)
          end
        end
        Harness::Shares.split(jobs, workers).each_with_index { |share, i| pool[i].send(share) }
        per_worker = Array.new(workers)
        workers.times do
          index, message = compat.receive(results)
          per_worker[index] = message
        end
        Harness::RunCost.report_workers(pool.map { |r| compat.value(r) })
        per_worker.map! { |message| Harness::ResultMessage.unwrap(message) }
        record_jobs(per_worker.map(&:size))
        per_worker.flatten(1)
      end
    end
  end
end
