# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # W ractors, each sent its share of the jobs in one message and handing
    # all its results back as its final value: the work's ceiling under
    # ractors, next to `ractors` and `ractors-pipeless`, which pay a message
    # each way per job. A final value is handed over, not copied (the ractor
    # has ended), as a hand-written ractor program returns its results; a
    # result sent while the ractor runs is deep-copied, which for big results
    # (a thousand parsed documents) costs more than the work.
    module RactorsSplit
      extend Harness::Model
      model "ractors-split", "W ractors, each sent its share of the jobs in one message, all its results back as its final value",
        family: "ractor", shape: "split", ceiling_of: %w[ractors ractors-pipeless], vouched_by: %w[ractor], pattern: <<~RUBY
          shares = ITEMS.each_slice((ITEMS.size + WORKERS - 1) / WORKERS).to_a
          ractors = shares.map do |share|
            Ractor.new(share) { |mine| mine.map { |item| WORK(item) } }
          end
          # a ractor's final value is handed over, not copied: value on Ruby 4.0, take on 3.x
          results = ractors.flat_map { |r| r.respond_to?(:value) ? r.value : r.take }
        RUBY

      def self.unsupported_reason
        "this Ruby has no Ractor" unless Harness::RactorCompat.available?
      end

      def self.run(workload, jobs, workers)
        compat = Harness::RactorCompat
        pool = Array.new(workers) do |i|
          Ractor.new(workload, name: "worker-#{i}") do |wl|
            mark = Harness::RunCost.worker_start
            share = Ractor.receive
            message = Harness::ResultMessage.call { share.map { |job| wl.work(job) } }
            [message, Harness::RunCost.worker_finish(mark)]
          end
        end
        Harness::Shares.split(jobs, workers).each_with_index { |share, i| pool[i].send(share) }
        per_worker, costs = pool.map { |r| compat.value(r) }.transpose
        Harness::RunCost.report_workers(costs)
        per_worker.map! { |message| Harness::ResultMessage.unwrap(message) }
        record_jobs(per_worker.map(&:size))
        record_batches([1] * per_worker.size)
        per_worker.flatten(1)
      end
    end
  end
end
