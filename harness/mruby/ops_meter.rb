# frozen_string_literal: true

# The ops/s loop of harness/ractorbench/harness/ops_meter.rb, written for
# mruby: the same warm-up, samples, batches (the clock read once a batch)
# and empty loop timed alongside each sample, and a record with the same
# keys, so the driver's arithmetic (Analysis::OpsPerSecond) reads both
# alike. Only raw counts and times leave here, the times as whole
# microseconds (Channel::Seconds).
module Ractorbench
  module Mruby
    module OpsMeter
      EMPTY_SHARE = 0.25
      EMPTY_MIN_SECONDS = 0.005

      # The loop every batch runs in, with nothing in it: what is subtracted.
      module EmptyLoop
        def self.run(batch)
          batch.each {}
        end
      end

      # The clock: a monotonic one where this mruby has it (the
      # mruby-process gem's Process.clock_gettime); else Time.now, the wall
      # clock, which a clock step would disturb. Either is read as whole
      # microseconds. The record names which.
      module Clock
        def self.monotonic?
          Object.const_defined?(:Process) && Process.respond_to?(:clock_gettime) && Process.const_defined?(:CLOCK_MONOTONIC)
        end

        def self.name
          monotonic? ? "Process.clock_gettime(CLOCK_MONOTONIC)" : "Time.now (wall clock, microseconds: this mruby has no monotonic clock)"
        end

        # Microseconds as an Integer, for differences only: an epoch in
        # microseconds as a Float would lose a quarter of one.
        def self.now
          return (Process.clock_gettime(Process::CLOCK_MONOTONIC) * 1_000_000).to_i if @monotonic

          t = Time.now
          t.to_i * 1_000_000 + t.usec
        end

        def self.choose
          @monotonic = monotonic?
        end
      end

      # settings: "time", "samples", "warmup", "gc_off", "batch_size".
      def self.measure(subject, settings)
        Clock.choose
        size = settings["batch_size"]
        gc_off = settings["gc_off"] && GC.respond_to?(:disable)
        subject.prepare
        batch = subject.batch(size)
        empty = Array.new(size)
        warmup = timed(subject, batch, settings["warmup"])
        timed(EmptyLoop, empty, settings["warmup"] * EMPTY_SHARE)
        loop_time = [settings["time"] * EMPTY_SHARE, EMPTY_MIN_SECONDS].max
        loops = []
        samples = []
        settings["samples"].times do
          loops << without_gc(gc_off) { timed(EmptyLoop, empty, loop_time) }
          samples << without_gc(gc_off) { timed(subject, batch, settings["time"]) }
        end
        executed = samples.inject(warmup[0]) { |batches, sample| batches + sample[0] } * size
        record = {
          "batch_size" => size, "sample_seconds" => Channel::Seconds.new((settings["time"] * 1_000_000).round), "gc" => gc_off ? "off" : "on",
          "warmup" => warmup, "samples" => samples, "loop_samples" => loops,
          "executions" => executed, "counted" => subject.count, "clock" => Clock.name
        }
        record["gc_note"] = "GC stayed on: this mruby has no GC.disable" if settings["gc_off"] && !gc_off
        record
      end

      # [batches, seconds]: batches run until `seconds` had passed at a
      # check, and the time of that check (the seed's elapsed_seconds loop).
      def self.timed(runner, batch, seconds)
        batches = 0
        started = Clock.now
        deadline = started + (seconds * 1_000_000).round
        while (checked = Clock.now) < deadline
          runner.run(batch)
          batches += 1
        end
        [batches, Channel::Seconds.new(checked - started)]
      end

      # The seed's Stage#gc_disabled: a clean heap, then no GC while timed.
      def self.without_gc(off)
        return yield unless off

        GC.start
        GC.disable
        begin
          yield
        ensure
          GC.enable
        end
      end
    end
  end
end
