# frozen_string_literal: true

# Entry point of one measured run: `ruby harness/child.rb`, the run's spec on
# stdin, its record back on file descriptor 3 (Harness::Channel).
# When this process started running Ruby code: what precedes the measured
# part (loading, building the jobs) is timed from here.
module Ractorbench
  module Harness
    CHILD_STARTED = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end
require_relative "ractorbench/harness/program_start"
require_relative "ractorbench/harness/parent_death"
Ractorbench::Harness::ParentDeath.arm
require_relative "ractorbench/harness"
require_relative "ractorbench/harness/channel"
require_relative "ractorbench/harness/profile_hook"
require_relative "ractorbench/harness/fields"
require_relative "ractorbench/harness/error_text"

module Ractorbench
  module Harness
    # Loads the workload and model named in the spec, times the model's run
    # (the "messages-only" span) and reports what happened.
    class Child
      def initialize(spec)
        @spec = spec
      end

      def call
        load_plugins
        workload = Harness.workloads.fetch(@spec.fetch("workload"))
        model = Harness.models.fetch(@spec.fetch("model"))
        if (reason = model.unsupported_reason)
          return report("status" => "unsupported", "reason" => reason)
        end

        # A workload that is a measurement of its own (ops-per-second) returns its whole record.
        report(workload.respond_to?(:measure_run) ? own_record(workload, model) : measure(workload, model))
      rescue Unsupported => e
        # The workload has no such variant (scope "workload"), or this Ruby lacks what it needs.
        report(record("status" => "unsupported", "scope" => e.scope, "reason" => e.message).to_h)
      rescue Exception => e # rubocop:disable Lint/RescueException -- a child reports every way it can fail
        report("status" => "error", "reason" => ErrorText.of(e), "backtrace" => ErrorText.backtrace(e, 8))
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
        profile = start_profile
        started = now
        setup_time = started - CHILD_STARTED
        results = run.call
        ended = now
        profile&.stop
        messages_time = ended - started
        cost = RunCost.finish(cost)
        # The time limit is on the measured part: what follows (checking and
        # digesting half a million results, say) is ours, not the user's.
        Channel.write(Channel::MEASURED => messages_time)
        run.close

        # Every job comes back once. A workload may choose how many jobs a
        # run has (a test fixture does); the real ones make W x M.
        problem = wrong_count(results, jobs.size) || workload.check(results, count, params)
        digest = workload.digest(results)
        record(
          "status" => problem ? "wrong_result" : "ok",
          "reason" => problem,
          "messages_time" => messages_time,
          "digest" => digest,
          "results" => results.size,
          "peak_rss_kb" => Memory.peak_rss_kb,
          # Around the measured part, inside this process: loading the
          # workload and model and building the jobs; then ending the run,
          # checking and digesting its results (ours, not the user's).
          "setup_time" => setup_time,
          "finish_time" => now - ended
        ).merge!(cost).merge!(run.metrics, :worker, "workload #{workload.name} under model #{model.name}").to_h
      end

      # The child's own fields, by name (Fields): a figure a model, a
      # workload or the run's costs write under another's name is an error
      # here, naming it, not a figure silently replaced or dropped later.
      def record(fields) = Fields::Record.new(:child, "the child").merge!(fields)

      def own_record(workload, model)
        record(workload.measure_run(model, @spec)).to_h
      end

      # nil unless this is a profiled run: every timed run goes by as before.
      def start_profile = ProfileHook.for(@spec)&.tap(&:start)

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
        Channel.write(record)
      end
    end
  end
end

Ractorbench::Harness::Channel.io
Ractorbench::Harness::Child.new(Ractorbench::Harness::Channel.spec).call
