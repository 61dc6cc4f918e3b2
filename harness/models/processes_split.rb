# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # W forked workers, each forked with its share of the jobs in hand (the
    # fork copies it, page by page as it is touched, as Parallel's workers
    # inherit their items) and answering with all its results in one
    # message: the work's ceiling under fork, next to `processes`, which
    # hands jobs out as workers finish them.
    module ProcessesSplit
      extend Harness::Model
      model "processes-split", "W forked workers, each forked with its share of the jobs, all its results back in one message",
        family: "process", shape: "split", ceiling_of: %w[processes], vouched_by: %w[marshal], pattern: <<~RUBY
          require "parallel"  # gem "parallel"
          shares = ITEMS.each_slice((ITEMS.size + WORKERS - 1) / WORKERS).to_a
          results = Parallel.map(shares, in_processes: WORKERS) do |share|
            share.map { |item| WORK(item) }
          end.flatten(1)
        RUBY

      def self.unsupported_reason
        "this Ruby cannot fork" unless Process.respond_to?(:fork)
      end

      def self.run(workload, jobs, workers)
        shares = Harness::Shares.split(jobs, [workers, 1].max)
        pool = shares.map { |share| Worker.start(workload, share) }
        replies = collect(pool)
        pool.each(&:finish)
        per_worker = replies.map { |reply| Harness::ResultMessage.unwrap(reply[:results]) }
        record_jobs(per_worker.map(&:size))
        record_batches([1] * per_worker.size)
        record_memory(replies)
        Harness::RunCost.report_workers(replies.map { |r| r[:cost] })
        per_worker.flatten(1)
      end

      # Each worker's reply, in worker order, read as the workers finish.
      def self.collect(pool)
        replies = {}
        until replies.size == pool.size
          waiting = pool.reject { |worker| replies.key?(worker) }
          ready = IO.select(waiting.map(&:reader))[0]
          waiting.each { |worker| replies[worker] = worker.reply if ready.include?(worker.reader) }
        end
        pool.map { |worker| replies.fetch(worker) }
      end

      def self.record_memory(replies)
        extra_metrics["workers_reported"] = replies.size
        extra_metrics["workers_peak_rss_kb"] = replies.sum { |r| r[:peak_rss_kb].to_i }
        extra_metrics["workers_pss_kb"] = replies.sum { |r| r[:pss_kb].to_i }
        extra_metrics["supervisor_pss_kb"] = Harness::Memory.pss_kb
      end

      # One forked worker and the supervisor's ends of its two pipes: its
      # results come back on one, and the other tells it when to go.
      class Worker
        def self.start(workload, share)
          jobs_r, jobs_w = IO.pipe
          results_r, results_w = IO.pipe
          pid = fork do
            mark = Harness::RunCost.worker_start
            Harness.after_fork
            jobs_w.close
            results_r.close
            jobs_r, results_w = Harness::HighDescriptor.move(jobs_r, "rb"), Harness::HighDescriptor.move(results_w, "wb")
            serve(workload, share, Harness::Wire::Reader.new(jobs_r), results_w, mark)
          end
          jobs_r.close
          results_w.close
          new(pid, jobs_w, results_r)
        end

        # In the worker: every result of its share out, with this process's
        # memory measured while its siblings are still alive (PSS divides a
        # shared page among the processes mapping it at that moment).
        def self.serve(workload, share, input, output, mark)
          results = Harness::ResultMessage.call { share.map { |job| workload.work(job) } }
          Harness::Wire.write(output, {results: results, peak_rss_kb: Harness::Memory.peak_rss_kb, pss_kb: Harness::Memory.pss_kb,
                                       cost: Harness::RunCost.worker_finish(mark, forked: true)})
          # Stay alive until told to go. A message, not EOF: later workers
          # hold copies of this pipe's write end.
          input.read
          exit!(0)
        rescue IOError, SystemCallError => e
          Harness::ClosedByRun.stop("worker #{Process.pid}'s pipes to its supervisor", e)
        end

        def initialize(pid, writer, reader)
          @pid = pid
          @writer = writer
          @stream = Harness::Wire::Reader.new(reader)
        end

        def reader = @stream.io

        def reply
          @stream.read or raise EOFError, "worker #{@pid} exited before answering"
        end

        def finish
          Harness::Wire.write(@writer, nil)
          @writer.close
          reader.close
          _, status = Process.wait2(@pid)
          raise "worker #{@pid} failed: #{status.inspect}" unless status.success?
        end
      end
    end
  end
end
