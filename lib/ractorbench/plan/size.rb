# frozen_string_literal: true

require_relative "../base/errors"

module Ractorbench
  module Plan
    # Sizes a plan before it starts, so that `--scale 1e9` is refused with
    # its estimate instead of running into the timeout run after run. Each
    # workload that can (Workload#estimate) says about how long a run of its
    # jobs takes serially, in units of one plain Ruby method call, whose time
    # is measured here, on this machine (the driver's Ruby: a Ruby under test
    # with a JIT is faster, so estimates err long). Refused: a run estimated
    # at more than FAR times the timeout, or a plan over a DAY, each run
    # counted at most its timeout.
    class Size
      FAR = 10
      DAY = 24 * 3600.0
      # A fresh Ruby process takes at least this long, whatever it runs.
      MIN_RUN = 0.1

      # Before the matrix is built: a plan of more runs than fit in a day
      # (in one job, of `shards` sharing the plan).
      def self.count!(entries, rubies:, reps:, shards: 1)
        count = entries.sum { |e| e.models.size * e.configs.size } * rubies * reps
        return if count * MIN_RUN <= DAY * shards

        raise UsageError, "this plan has #{count} runs, over a day at #{MIN_RUN} s a run at the very least: " \
          "lower --reps or the sizes, or split it into shards (--shard I/N)"
      end

      # entries: Plan::Entry list; runs: Plan::RunSpec list (the matrix).
      def self.check!(runs, catalog, timeout:)
        new(catalog).check!(runs, timeout)
      end

      def initialize(catalog)
        @catalog = catalog
        @per_call = self.class.call_seconds
        @estimates = {}
      end

      def check!(runs, timeout)
        estimates = runs.map { |spec| [spec, estimate(spec)] }
        spec, longest = estimates.select(&:last).max_by(&:last)
        if longest
          self.class.run!(longest, timeout: timeout, what: "#{title(spec)} W=#{spec.workers} M=#{spec.messages}",
            how: "#{jobs(spec)} jobs, estimated from this machine's speed", lower: "lower --scale, --messages or the workload's size")
        end
        total = estimates.sum { |_, seconds| [seconds || 0, timeout].min }
        self.class.total!(total, runs: runs.size, lower: "lower --reps, --scale or the sizes, or split it into shards (--shard I/N)")
      end

      # One run estimated at seconds (how: from what): refused beyond FAR
      # times the timeout. `try` sizes its sweep by these two as well.
      def self.run!(seconds, timeout:, what:, how:, lower:)
        return if seconds <= FAR * timeout

        raise UsageError, "#{what}: one run would take about #{duration(seconds)} (#{how}), far beyond " \
          "--timeout #{format("%g", timeout)}s: #{lower}"
      end

      # A plan of runs estimated at seconds in all: refused beyond a DAY.
      def self.total!(seconds, runs:, lower:)
        return if seconds <= DAY

        raise UsageError, "this plan of #{runs} runs would take about #{duration(seconds)} (estimated from this " \
          "machine's speed): #{lower}"
      end

      # Seconds for one plain Ruby method call, the best of a few fib(18)s.
      def self.call_seconds
        @call_seconds ||= Array.new(5) do
          started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          fib(18)
          Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
        end.min / 8361.0 # fib(18) makes 2 fib(19) - 1 = 8,361 calls
      end

      def self.fib(n) = (n < 2) ? n : fib(n - 1) + fib(n - 2)

      def self.duration(seconds)
        return "for ever" unless seconds.finite?
        return format("%.0f s", seconds) if seconds < 120
        return format("%.0f minutes", seconds / 60) if seconds < 7200
        return format("%.1f hours", seconds / 3600) if seconds < 2 * DAY
        return format("%.0f days", seconds / DAY) if seconds < 1000 * DAY

        years = seconds / (365 * DAY)
        (years < 1e6) ? format("%.0f years", years) : format("%.0e years", years)
      end

      private

      def estimate(spec)
        key = [spec.workload, spec.workers * spec.messages, spec.params]
        return @estimates[key] if @estimates.key?(key)

        workload = @catalog.workload(spec.workload).implementation
        params = workload.default_params.merge((spec.params || {}).transform_keys(&:to_sym))
        @estimates[key] = begin
          seconds = workload.estimate(spec.workers * spec.messages, params, @per_call)
          seconds&.to_f
        rescue
          nil
        end
      end

      def jobs(spec) = spec.workers * spec.messages

      def title(spec)
        params = spec.params.to_h.sort.map { |k, v| "#{k}=#{v}" }.join(",")
        params.empty? ? spec.workload : "#{spec.workload} (#{params})"
      end
    end
  end
end
