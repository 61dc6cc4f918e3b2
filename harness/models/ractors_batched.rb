# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # W ractors fed the way `processes` feeds its forked workers: main hands
    # each worker batches of jobs sized by the work's pace (Harness::BatchPace:
    # about 2 ms of work a batch, two in flight, one job at a time when jobs
    # are coarse), and tops a worker up as its results come back, so fast
    # workers take more. This is the shape a Ruby engineer writes for many
    # small items; `ractors` keeps the seed's coordinator, three messages an
    # item. Result batches are copied, not moved: on Ruby 3.4.0 a moved array
    # of arrays arrived with foreign objects in it (send(move: true)); big
    # results go uncopied under ractors-split, as a final value.
    module RactorsBatched
      extend Harness::Model
      model "ractors-batched", "W ractors fed batches of jobs at their pace by main, results back a batch at a time",
        family: "ractor", shape: "batches", vouched_by: %w[ractor], pattern: <<~RUBY
          inbox = defined?(Ractor::Port) ? Ractor::Port.new : Ractor.current  # Ruby 4.0 : 3.x
          workers = Array.new(WORKERS) do
            Ractor.new(inbox) do |out|
              while (batch = Ractor.receive)
                out.send([Ractor.current, batch.map { |item, i| [i, WORK(item)] }])
              end
            end
          end
          batches = ITEMS.each_with_index.each_slice(BATCH).to_a
          results = Array.new(ITEMS.size)
          busy = workers.count { |w| (batch = batches.shift) && w.send(batch) }
          while busy > 0
            worker, answers = inbox.is_a?(Ractor) ? Ractor.receive : inbox.receive
            answers.each { |i, result| results[i] = result }
            (batch = batches.shift) ? worker.send(batch) : busy -= 1
          end
          workers.each { |w| w.send(nil) }
        RUBY

      def self.unsupported_reason
        "this Ruby has no Ractor" unless Harness::RactorCompat.available?
      end

      def self.run(workload, jobs, workers)
        compat = Harness::RactorCompat
        results = compat.new_channel
        pool = Array.new(workers) do |i|
          Ractor.new(results, workload, i, name: "worker-#{i}") { |out, wl, index| Worker.serve(out, wl, index) }
        end
        paces = Array.new(workers) { Harness::BatchPace.new(Harness::BatchPace.coarse?(workload)) }
        pending = jobs.dup
        top_up = ->(i) { while (batch = paces[i].next_batch(pending, workers)) do pool[i].send(batch) end }
        workers.times(&top_up)
        collected = []
        while paces.any?(&:busy?)
          index, answers = compat.receive(results)
          paces[index].answered
          answers.each { |message| collected << Harness::ResultMessage.unwrap(message) }
          top_up.call(index)
        end
        pool.each { |r| r.send(nil) }
        costs = pool.map { |r| compat.value(r) }
        Harness::RunCost.report_workers(costs)
        record_jobs(paces.map(&:done))
        record_batches(paces.map(&:sent))
        collected
      end

      # Runs inside each worker ractor: answer every batch, tagged with this
      # worker's index so main knows whom to top up; end with what it cost.
      module Worker
        def self.serve(out, workload, index)
          mark = Harness::RunCost.worker_start
          while (batch = Ractor.receive)
            answers = batch.map { |job| Harness::ResultMessage.call { workload.work(job) } }
            out.send([index, answers])
          end
          Harness::RunCost.worker_finish(mark)
        end
      end
    end
  end
end
