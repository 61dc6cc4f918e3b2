# frozen_string_literal: true

# Entry point of one measured run: `ruby harness/child.rb SPEC`, SPEC being a
# base64 Marshal dump of the run's spec. The record goes back the same way on
# file descriptor 3 (or RACTORBENCH_RESULT_FD), never on stdout, because
# workloads may print. Marshal, not JSON: it is in core Ruby, and requiring
# json costs every run ~8 ms of start-up.
require_relative "ractorbench/harness"

module Ractorbench
  module Harness
    # Loads the workload and model named in the spec, times the model's run
    # (the "messages-only" span) and reports what happened.
    class Child
      def initialize(spec, out)
        @spec = spec
        @out = out
      end

      def call
        load_plugins
        workload = Harness.workloads.fetch(@spec.fetch("workload"))
        model = Harness.models.fetch(@spec.fetch("model"))
        if (reason = model.unsupported_reason)
          return report("status" => "unsupported", "reason" => reason)
        end

        # A workload that is a measurement of its own (ops-per-second) returns its whole record.
        report(workload.respond_to?(:measure_run) ? workload.measure_run(model, @spec) : measure(workload, model))
      rescue Unsupported => e
        # The workload, not this Ruby, has no such variant.
        report("status" => "unsupported", "scope" => "workload", "reason" => e.message)
      rescue Exception => e # rubocop:disable Lint/RescueException -- a child reports every way it can fail
        report("status" => "error", "reason" => "#{e.class}: #{e.message}",
          "backtrace" => Array(e.backtrace).first(8))
        exit!(1)
      end

      private

      def load_plugins
        RactorCompat.silence_experimental_warning
        Array(@spec["files"]).each { |path| require File.expand_path(path) }
      end

      def measure(workload, model)
        workers = Integer(@spec.fetch("workers"))
        count = workers * Integer(@spec.fetch("messages"))
        params = workload.default_params.merge(symbolize(@spec.fetch("params", {})))
        jobs = workload.jobs(count, params)
        run = workload.prepare(model, jobs, workers, params)

        cost = RunCost.start
        started = now
        results = run.call
        messages_time = now - started
        cost = RunCost.finish(cost)
        run.close

        # Every job comes back once. A workload may choose how many jobs a
        # run has (a test fixture does); the real ones make W x M.
        problem = wrong_count(results, jobs.size) || workload.check(results, count, params)
        {
          "status" => problem ? "wrong_result" : "ok",
          "reason" => problem,
          "messages_time" => messages_time,
          "digest" => workload.digest(results),
          "results" => results.size,
          "peak_rss_kb" => Memory.peak_rss_kb
        }.merge(cost, run.metrics)
      end

      def wrong_count(results, count)
        "expected #{count} results, got #{results.size}" unless results.size == count
      end

      def symbolize(hash)
        hash.each_with_object({}) { |(k, v), h| h[k.to_sym] = v }
      end

      def now
        Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end

      def report(record)
        @out.write(Marshal.dump(record))
        @out.flush
      end
    end
  end
end

out = IO.for_fd(Integer(ENV.fetch("RACTORBENCH_RESULT_FD", "3")), "w", autoclose: false)
out.close_on_exec = true
Ractorbench::Harness.result_io = out
Ractorbench::Harness::Child.new(Marshal.load(ARGV.fetch(0).unpack1("m0")), out).call # rubocop:disable Security/MarshalLoad -- our own driver's spec
