# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # W forked workers, each with a pair of pipes; the supervisor hands the
    # next jobs to whichever worker answers first (IO.select), like the seed's
    # fork_test, but with Marshal so any workload's results travel. Workers
    # are forked with every job in hand, so a job travels as its index (as
    # Parallel sends its workers indices into the items they inherited).
    # When jobs outnumber workers many times over, they travel in batches
    # (as the seed's requests queued in its pipe buffer), so neither side
    # wakes up once per message when messages are short. With few jobs each
    # worker has one at a time: a job queued behind another is a job an idle
    # worker could have run.
    module Processes
      extend Harness::Model
      model "processes", "W forked workers fed by a supervisor over pipes", family: "process", shape: "batches", vouched_by: %w[marshal], pattern: <<~RUBY
        require "parallel"  # gem "parallel": a forked worker takes the next batch as it finishes one
        results = Parallel.map(ITEMS.each_slice(BATCH).to_a, in_processes: WORKERS) do |batch|
          batch.map { |item| WORK(item) }
        end.flatten(1)
      RUBY

      def self.unsupported_reason
        "this Ruby cannot fork" unless Process.respond_to?(:fork)
      end

      def self.run(workload, jobs, workers)
        coarse = Harness::BatchPace.coarse?(workload)
        pool = Array.new([workers, 1].max) { Worker.start(workload, coarse, jobs) }
        pending = Array.new(jobs.size) { |i| i }
        results = []
        pool.each { |w| w.top_up(pending, pool.size) }
        until (busy = pool.select(&:busy?)).empty?
          sending = busy.select(&:sending?)
          readable, writable = IO.select(busy.map(&:reader), sending.map(&:writer))
          sending.each { |worker| worker.flush if writable.include?(worker.writer) }
          busy.each do |worker|
            next unless readable.include?(worker.reader)

            worker.receive_available.each { |message| results << Harness::ResultMessage.unwrap(message) }
            worker.top_up(pending, pool.size)
          end
        end
        # Every process measures itself while all are still alive: PSS
        # divides a shared page among the processes mapping it at that moment.
        stats = pool.map(&:memory)
        supervisor_pss = Harness::Memory.pss_kb
        pool.each(&:finish)
        record_memory(stats, supervisor_pss)
        Harness::RunCost.report_workers(stats.map { |s| s[:cost] })
        record_jobs(pool.map(&:done))
        record_batches(pool.map(&:sent))
        results
      end

      def self.record_memory(stats, supervisor_pss)
        extra_metrics["workers_reported"] = stats.size
        extra_metrics["workers_peak_rss_kb"] = stats.sum { |s| s[:peak_rss_kb].to_i }
        extra_metrics["workers_pss_kb"] = stats.sum { |s| s[:pss_kb].to_i }
        extra_metrics["supervisor_pss_kb"] = supervisor_pss
      end

      # One forked worker and the supervisor's ends of its two pipes, fed at
      # the pace Harness::BatchPace sets.
      class Worker
        def self.start(workload, coarse, jobs)
          jobs_r, jobs_w = IO.pipe
          results_r, results_w = IO.pipe
          pid = fork do
            mark = Harness::RunCost.worker_start
            Harness.after_fork
            jobs_w.close
            results_r.close
            jobs_r, results_w = Harness::HighDescriptor.move(jobs_r, "rb"), Harness::HighDescriptor.move(results_w, "wb")
            serve(workload, jobs, Harness::Wire::Reader.new(jobs_r), results_w, mark)
          end
          jobs_r.close
          results_w.close
          new(pid, jobs_w, results_r, Harness::BatchPace.new(coarse, weigh: ->(i) { Harness::BatchPace.bytes(jobs[i]) }))
        end

        # In the worker: answer each batch until told to stop, then report
        # this process's own memory and cost, which only it can read.
        def self.serve(workload, jobs, input, output, mark)
          while (batch = input.read)
            output.write(Harness::Wire.frame(batch.map { |i| Harness::ResultMessage.call { workload.work(jobs[i]) } }))
          end
          Harness::Wire.write(output, {peak_rss_kb: Harness::Memory.peak_rss_kb, pss_kb: Harness::Memory.pss_kb,
                                       cost: Harness::RunCost.worker_finish(mark, forked: true)})
          # Stay alive (pages shared) until told to go. A second message, not
          # EOF: later workers hold copies of this pipe's write end.
          input.read
          exit!(0)
        rescue IOError, SystemCallError => e
          Harness::ClosedByRun.stop("worker #{Process.pid}'s pipes to its supervisor", e)
        end

        def initialize(pid, writer, reader, pace)
          @pid = pid
          @writer = writer
          @stream = Harness::Wire::Reader.new(reader)
          @pace = pace
          # Bytes not yet written: the supervisor never blocks on a worker's
          # full pipe while that worker blocks writing answers it is not reading.
          @outgoing = "".b
        end

        attr_reader :writer

        def reader = @stream.io

        def done = @pace.done

        def sent = @pace.sent

        def busy? = @pace.busy?

        def sending? = !@outgoing.empty?

        # Sends batches until this worker has its fill or no job is left.
        def top_up(pending, workers)
          while (batch = @pace.next_batch(pending, workers))
            @outgoing << Harness::Wire.frame(batch)
          end
          flush
        end

        # Writes what the pipe takes now, keeping the rest for when it is writable.
        def flush
          return if @outgoing.empty?

          written = @writer.write_nonblock(@outgoing, exception: false)
          @outgoing = @outgoing.byteslice(written, @outgoing.bytesize - written) if written.is_a?(Integer)
        end

        # Every result already in the pipe (at least one batch: the pipe was ready).
        def receive_available
          batches = @stream.available
          raise EOFError, "worker #{@pid} exited before answering" if batches.nil?

          @pace.answered(batches.size)
          batches.flatten(1)
        end

        # Tells the worker there are no more jobs; it answers with its memory.
        def memory
          Harness::Wire.write(@writer, nil)
          @stream.read or raise EOFError, "worker #{@pid} exited before reporting its memory"
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
