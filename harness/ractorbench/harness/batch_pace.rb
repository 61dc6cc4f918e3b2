# frozen_string_literal: true

module Ractorbench
  module Harness
    # How much work a supervisor hands one worker at a time, for models that
    # feed workers over a channel (forked processes over pipes, ractors over
    # their mailboxes). Jobs go in batches, results come back a batch at a
    # time: one copy and one wake-up per batch, not per job, which is most of
    # what a message costs when jobs are short. Two batches are in flight, so
    # a worker starts its next while the supervisor reads its last. Coarse
    # jobs go one at a time, so none waits behind another while a worker idles.
    class BatchPace
      # A job this long dwarfs the wake-up a message costs.
      COARSE_JOB = 0.001
      # Batches in flight per worker (one for coarse jobs).
      BATCHES = 2
      # Most jobs in one batch.
      BATCH = 128
      # A batch holds about this much work once a worker's pace is known:
      # long enough that a wake-up a batch costs little, short enough that
      # its results leave the worker before its garbage collector promotes
      # them. (Batches of 128 prime chunks, 11 ms, lived through three minor
      # GCs in a forked worker: its major GCs then took twice serial's GC
      # time, and the model lost a tenth of its speed to a static split.)
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

      # A job's size as Marshal writes it; 0 for one Marshal refuses (a job
      # with a Proc still runs in a worker forked holding it).
      def self.bytes(job)
        Marshal.dump(job).bytesize
      rescue TypeError
        0
      end

      # Whether the workload's jobs are coarse (its job_seconds hint).
      def self.coarse?(workload)
        workload.respond_to?(:job_seconds) && workload.job_seconds.to_f >= COARSE_JOB
      end

      # weigh: a job's size on the wire in bytes (a model that sends indices
      # into jobs its workers already hold weighs the job, not the index).
      def initialize(coarse, weigh: ->(job) { BatchPace.bytes(job) })
        @coarse = coarse
        @weigh = weigh
        @batches = coarse ? 1 : BATCHES
        # Jobs in each batch in flight, oldest first: answers come in order.
        @in_flight = []
        @done = 0
        @sent = 0
        @started = nil
      end

      # Jobs answered, and batches handed out.
      attr_reader :done, :sent

      def busy? = !@in_flight.empty?

      # The next batch for this worker, taken from `pending`, or nil when it
      # has its fill or no job is left.
      def next_batch(pending, workers)
        return nil if pending.empty? || @in_flight.size >= @batches || @in_flight.sum >= BatchPace.depth(pending.size, workers)

        @started ||= Process.clock_gettime(Process::CLOCK_MONOTONIC)
        batch = pending.shift(batch_size(pending, workers))
        @in_flight << batch.size
        @sent += 1
        batch
      end

      # The worker answered its oldest `count` batches.
      def answered(count = 1)
        @done += @in_flight.shift(count).sum
      end

      private

      # Its share ahead split over the batches in flight, at most
      # BATCH_SECONDS of work at its pace so far; one when jobs are coarse or big.
      def batch_size(pending, workers)
        return 1 if @coarse || @weigh.call(pending.first) > SMALL_JOB

        (BatchPace.depth(pending.size, workers) / @batches).clamp(1, paced_batch)
      end

      def paced_batch
        return FIRST_BATCH if @done.zero?

        seconds_a_job = (Process.clock_gettime(Process::CLOCK_MONOTONIC) - @started) / @done
        (BATCH_SECONDS / seconds_a_job).floor.clamp(1, BATCH)
      end
    end
  end
end
