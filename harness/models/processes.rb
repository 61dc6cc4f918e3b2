# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # W forked workers, each with a pair of pipes; the supervisor hands the
    # next jobs to whichever worker answers first (IO.select), like the seed's
    # fork_test, but with Marshal so any workload's jobs and results travel.
    # When jobs outnumber workers many times over, they travel in batches
    # (as the seed's requests queued in its pipe buffer), so neither side
    # wakes up once per message when messages are short. With few jobs each
    # worker has one at a time: a job queued behind another is a job an idle
    # worker could have run.
    module Processes
      extend Harness::Model
      model "processes", "W forked workers fed by a supervisor over pipes", family: "process"

      def self.unsupported_reason
        "this Ruby cannot fork" unless Process.respond_to?(:fork)
      end

      # A job this long dwarfs the wake-up a message costs: such jobs go one at
      # a time, so that none waits in one worker's pipe while another is idle.
      COARSE_JOB = 0.001

      def self.run(workload, jobs, workers)
        coarse = workload.respond_to?(:job_seconds) && workload.job_seconds.to_f >= COARSE_JOB
        pool = Array.new([workers, 1].max) { Worker.start(workload, coarse) }
        pending = jobs.dup
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
        results
      end

      def self.record_memory(stats, supervisor_pss)
        extra_metrics["workers"] = stats.size
        extra_metrics["workers_peak_rss_kb"] = stats.sum { |s| s[:peak_rss_kb].to_i }
        extra_metrics["workers_pss_kb"] = stats.sum { |s| s[:pss_kb].to_i }
        extra_metrics["supervisor_pss_kb"] = supervisor_pss
      end

      # One forked worker and the supervisor's ends of its two pipes. Jobs go
      # in batches, results come back a batch at a time: one Marshal call and
      # one wake-up per batch, not per job, which is most of what a message
      # costs when jobs are short. Two batches are in flight, so a worker
      # starts its next while the supervisor reads its last.
      class Worker
        # Batches in flight per worker (one for coarse jobs).
        BATCHES = 2
        # Most jobs in one batch.
        BATCH = 128
        # A batch holds about this much work once a worker's pace is known:
        # long enough that a wake-up a batch costs little, short enough that
        # its results leave the worker before its garbage collector promotes
        # them. (Batches of 128 prime chunks, 11 ms, lived through three minor
        # GCs: the workers' major GCs then took twice serial's GC time, and
        # the model lost a tenth of its speed to processes-split.)
        BATCH_SECONDS = 0.002
        # Jobs in a batch before the worker has answered any.
        FIRST_BATCH = 8
        # A job whose dump is bigger than this goes alone: batching saves
        # nothing on it, and its results may be as big.
        SMALL_JOB = 4096
        # A worker holds at most this fraction of its fair share of the jobs
        # not yet handed out, so queueing ahead cannot leave another idle.
        SHARE_AHEAD = 4

        # Jobs a worker may hold when `remaining` are still to hand out among
        # `workers`: one unless there are many times more jobs than workers.
        def self.depth(remaining, workers)
          (remaining / (workers * SHARE_AHEAD)).clamp(1, BATCH * BATCHES)
        end

        def self.start(workload, coarse)
          jobs_r, jobs_w = IO.pipe
          results_r, results_w = IO.pipe
          pid = fork do
            mark = Harness::RunCost.worker_start
            Harness.after_fork
            jobs_w.close
            results_r.close
            serve(workload, Harness::Wire::Reader.new(jobs_r), results_w, mark)
          end
          jobs_r.close
          results_w.close
          new(pid, jobs_w, results_r, coarse)
        end

        # In the worker: answer each batch until told to stop, then report
        # this process's own memory and cost, which only it can read.
        def self.serve(workload, input, output, mark)
          while (batch = input.read)
            output.write(Harness::Wire.frame(batch.map { |job| Harness::ResultMessage.call { workload.work(job) } }))
          end
          Harness::Wire.write(output, {peak_rss_kb: Harness::Memory.peak_rss_kb, pss_kb: Harness::Memory.pss_kb,
                                       cost: Harness::RunCost.worker_finish(mark, forked: true)})
          # Stay alive (pages shared) until told to go. A second message, not
          # EOF: later workers hold copies of this pipe's write end.
          input.read
          exit!(0)
        end

        def initialize(pid, writer, reader, coarse)
          @pid = pid
          @writer = writer
          @stream = Harness::Wire::Reader.new(reader)
          # Jobs in each batch in flight, oldest first: answers come in order.
          @in_flight = []
          # Bytes not yet written: the supervisor never blocks on a worker's
          # full pipe while that worker blocks writing answers it is not reading.
          @outgoing = "".b
          @done = 0
          @batches = coarse ? 1 : BATCHES
          @coarse = coarse
          @started = nil
        end

        attr_reader :done, :writer

        def reader = @stream.io

        def busy? = !@in_flight.empty?

        def sending? = !@outgoing.empty?

        # Sends batches until this worker has its fill or no job is left.
        def top_up(pending, workers)
          while !pending.empty? && @in_flight.size < @batches && @in_flight.sum < Worker.depth(pending.size, workers)
            @started ||= Process.clock_gettime(Process::CLOCK_MONOTONIC)
            size = batch_size(pending, workers)
            @outgoing << Harness::Wire.frame(pending.shift(size))
            @in_flight << size
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

          @done += @in_flight.shift(batches.size).sum
          batches.flatten(1)
        end

        # Tells the worker there are no more jobs; it answers with its memory.
        def memory
          Harness::Wire.write(@writer, nil)
          @stream.read or raise EOFError, "worker #{@pid} exited before reporting its memory"
        end

        # Jobs this worker's next batch holds: its share ahead split over the
        # batches in flight, at most BATCH_SECONDS of work at its pace so far;
        # one when jobs are coarse or big.
        def batch_size(pending, workers)
          return 1 if @coarse || Marshal.dump(pending.first).bytesize > SMALL_JOB

          (Worker.depth(pending.size, workers) / @batches).clamp(1, paced_batch)
        end

        # BATCH_SECONDS of work at the pace this worker has answered so far.
        def paced_batch
          return FIRST_BATCH if @done.zero?

          seconds_a_job = (Process.clock_gettime(Process::CLOCK_MONOTONIC) - @started) / @done
          (BATCH_SECONDS / seconds_a_job).floor.clamp(1, BATCH)
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
