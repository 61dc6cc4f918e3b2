# frozen_string_literal: true

module Ractorbench
  module Harness
    # Measures how many times per second a subject's operation runs, the
    # way the Concurrently seed did: operations in batches, the clock read
    # once per batch, the loop going until a sample's time is up. Around
    # that: a warm-up, several samples, and the same loop with no operation
    # in it (timed alongside each sample) so its cost can be subtracted.
    #
    # Only raw counts and times leave here; the driver does the arithmetic.
    module OpsMeter
      # The empty loop is cheap and steady, so its samples can be shorter,
      # though not so short that one preemption by the OS is all they see.
      EMPTY_SHARE = 0.25
      EMPTY_MIN_SECONDS = 0.005

      # The loop every batch runs in, with nothing in it: what is subtracted.
      module EmptyLoop
        def self.run(batch)
          batch.each {}
        end
      end

      Settings = Struct.new(:time, :samples, :warmup, :gc_off, :batch_size, keyword_init: true)

      module_function

      # A Hash of what was measured: [batches, seconds] for the warm-up and
      # for each sample of the subject and of the empty loop, how many
      # operations the harness ran and how many the subject counted.
      def measure(subject, settings)
        gc_off = settings.gc_off && !subject.gc_off_problem
        record = nil
        subject.within do
          subject.prepare
          batch = subject.batch(settings.batch_size)
          empty = Array.new(settings.batch_size)
          warmup = timed(subject, batch, settings.warmup)
          timed(EmptyLoop, empty, settings.warmup * EMPTY_SHARE)
          loops, samples = sample(subject, batch, empty, settings, gc_off)
          executed = (warmup[0] + samples.sum(&:first)) * settings.batch_size
          subject.settle(executed)
          record = {
            "batch_size" => settings.batch_size, "sample_seconds" => settings.time,
            "gc" => gc_off ? "off" : "on", "warmup" => warmup, "samples" => samples, "loop_samples" => loops,
            "executions" => executed, "counted" => subject.count
          }
        end
        record["gc_note"] = "GC stayed on: #{subject.gc_off_problem}" if settings.gc_off && !gc_off
        record
      end

      # Empty loop and subject take turns, so drift in the machine's speed
      # falls on both alike.
      def sample(subject, batch, empty, settings, gc_off)
        loop_time = [settings.time * EMPTY_SHARE, EMPTY_MIN_SECONDS].max
        pairs = Array.new(settings.samples) do
          [without_gc(gc_off) { timed(EmptyLoop, empty, loop_time) },
            without_gc(gc_off) { timed(subject, batch, settings.time) }]
        end
        pairs.transpose
      end

      # [batches, seconds]: batches run until `seconds` had passed at a
      # check, and the time of that check (the seed's elapsed_seconds loop).
      def timed(runner, batch, seconds)
        batches = 0
        started = now
        deadline = started + seconds
        while (checked = now) < deadline
          runner.run(batch)
          batches += 1
        end
        [batches, checked - started]
      end

      # The seed's Stage#gc_disabled: a clean heap, then no GC while timed.
      def without_gc(off)
        return yield unless off

        GC.start
        GC.disable
        begin
          yield
        ensure
          GC.enable
        end
      end

      def now
        Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end
    end
  end
end
