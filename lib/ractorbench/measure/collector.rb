# frozen_string_literal: true

require "time"
require_relative "runner"
require_relative "../store"
require_relative "progress"
require_relative "machine"
require_relative "../analysis/digest_check"

module Ractorbench
  module Measure
    # Runs a plan's pending runs one at a time, appending each record to the
    # results file as soon as it is known. A failed run is recorded and the
    # collection goes on.
    class Measure::Collector
      # wait_quiet: seconds to wait at most, before each run, for the machine to
      # go quiet (--wait-quiet), or nil.
      def initialize(catalog:, targets:, timeout:, writer:, progress:, wait_quiet: nil)
        @runner = Measure::Runner.new(catalog: catalog, timeout: timeout)
        @wait_quiet = wait_quiet
        @targets = targets.to_h { |t| [t.name, t] }
        @writer = writer
        @progress = progress
        @digests = {}
      end

      def collect(runs, first_seq:)
        runs.each_with_index do |spec, i|
          @progress.started(spec.id)
          record = measure(spec, first_seq + i)
          @writer.append(record)
          report(record)
          @progress.finished
        end
      ensure
        @progress.finish
      end

      private

      def measure(spec, seq)
        started_at = Time.now.utc.iso8601(3)
        # The 1-minute load average as the run began: shows when something
        # else kept the machine busy during the collection (Analysis::Warnings).
        load = Measure::Machine.load_average&.first
        waited = quiet_moment
        outcome = @runner.call(spec, @targets.fetch(spec.ruby))
        {"type" => "run", "id" => spec.id, "seq" => seq, "started_at" => started_at, "load_average_1m" => load}
          .merge(waited).merge(spec.to_h).merge(outcome)
      end

      def quiet_moment
        return {} unless @wait_quiet

        seconds, quiet = Measure::Interference.wait_quiet(@wait_quiet)
        @progress.say("the machine stayed busy for #{@wait_quiet.round}s (--wait-quiet): running anyway") unless quiet
        {"waited_quiet" => seconds.round(3), "quiet" => quiet}
      end

      def report(record)
        return @progress.say("FAILED #{record["id"]}: #{record["reason"]}") if record["status"] == "failed"
        return unless record["digest"]

        # Said at once, not only at the end: a model computing something else
        # makes every figure after it meaningless.
        key = Analysis::DigestCheck.key(record)
        seen = (@digests[key] ||= record["digest"])
        @progress.say("DIGEST MISMATCH #{record["id"]}: #{record["digest"]}, earlier runs gave #{seen}") unless seen == record["digest"]
      end
    end
  end
end
