# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # W forked workers, each with a pair of pipes; the supervisor hands the
    # next job to whichever worker answers first (IO.select), like the seed's
    # fork_test, but with Marshal so any workload's jobs and results travel.
    # When jobs outnumber workers many times over, several small jobs wait in
    # each worker's pipe (as the seed's requests queued in its pipe buffer)
    # and both ends read whole buffers of frames, so neither side wakes up
    # once per message when messages are short. With few jobs each worker
    # has one at a time: a job queued behind another is a job an idle worker
    # could have run.
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
        depth = coarse ? 1 : Worker::DEPTH
        pool = Array.new([workers, 1].max) { Worker.start(workload, depth) }
        pending = jobs.dup
        results = []
        pool.each { |w| w.top_up(pending, pool.size) }
        until (busy = pool.select(&:busy?)).empty?
          ready = IO.select(busy.map(&:reader))[0]
          busy.each do |worker|
            next unless ready.include?(worker.reader)

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

      # One forked worker and the supervisor's ends of its two pipes.
      class Worker
        # Most jobs in flight per worker: enough that a worker wakes up once
        # for many short jobs, not once for each.
        DEPTH = 256
        # Most bytes of jobs in flight per worker, well under a pipe's 64 KiB:
        # the supervisor must never block writing into a full pipe while its
        # worker blocks writing a result the supervisor is not reading. A
        # bigger job goes alone.
        QUEUE_BYTES = 32_768
        # A worker holds at most this fraction of its fair share of the jobs
        # not yet handed out, so queueing ahead cannot leave another idle.
        SHARE_AHEAD = 4

        # Jobs a worker may hold when `remaining` are still to hand out among
        # `workers`: one unless there are many times more jobs than workers.
        def self.depth(remaining, workers)
          (remaining / (workers * SHARE_AHEAD)).clamp(1, DEPTH)
        end

        def self.start(workload, depth = DEPTH)
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
          new(pid, jobs_w, results_r, depth)
        end

        # In the worker: answer each job until told to stop, then report
        # this process's own memory and cost, which only it can read.
        def self.serve(workload, input, output, mark)
          replies = "".b
          while (job = input.read)
            replies << Harness::Wire.frame(Harness::ResultMessage.call { workload.work(job) })
            # Answer in one write whatever is done before waiting for more.
            output.write(replies.slice!(0, replies.bytesize)) unless input.frame_buffered?
          end
          output.write(replies) unless replies.empty?
          Harness::Wire.write(output, {peak_rss_kb: Harness::Memory.peak_rss_kb, pss_kb: Harness::Memory.pss_kb,
                                       cost: Harness::RunCost.worker_finish(mark, forked: true)})
          # Stay alive (pages shared) until told to go. A second message, not
          # EOF: later workers hold copies of this pipe's write end.
          input.read
          exit!(0)
        end

        def initialize(pid, writer, reader, depth = DEPTH)
          @pid = pid
          @writer = writer
          @stream = Harness::Wire::Reader.new(reader)
          # Sizes of the frames in flight, oldest first: results come back in order.
          @in_flight = []
          @in_flight_bytes = 0
          @done = 0
          @depth = depth
        end

        attr_reader :done

        def reader = @stream.io

        def busy? = !@in_flight.empty?

        # Sends jobs until this worker has its fill or none are left.
        def top_up(pending, workers)
          frames = "".b
          limit = [Worker.depth(pending.size, workers), @depth].min
          while !pending.empty? && @in_flight.size < limit
            frame = Harness::Wire.frame(pending.first)
            break unless @in_flight.empty? || @in_flight_bytes + frame.bytesize <= QUEUE_BYTES

            pending.shift
            frames << frame
            @in_flight << frame.bytesize
            @in_flight_bytes += frame.bytesize
          end
          @writer.write(frames) unless frames.empty?
        end

        # Every result already in the pipe (at least one: the pipe was ready).
        def receive_available
          messages = @stream.available
          raise EOFError, "worker #{@pid} exited before answering" if messages.nil?

          @in_flight_bytes -= @in_flight.shift(messages.size).sum
          @done += messages.size
          messages
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
