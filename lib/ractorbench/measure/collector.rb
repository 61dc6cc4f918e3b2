# frozen_string_literal: true

require "time"
require_relative "../printable"
require_relative "runner"
require_relative "interference"
require_relative "../store"
require_relative "progress"
require_relative "machine"
require_relative "../analysis/digest_check"
require_relative "../plan/configuration"

module Ractorbench
  module Measure
    # Runs a plan's pending runs one at a time, appending each record to the
    # results file as soon as it is known. A failed run is recorded and the
    # collection goes on. Before each run a "started" mark goes to the file,
    # so a run that kills the collector is known on --resume. Ctrl-C or
    # SIGTERM kills the run in flight (the Launcher) and ends the collection
    # with Stopped; the file stays complete up to the last finished run.
    class Measure::Collector
      # The collection was stopped by a signal; signo for the exit status.
      class Stopped < StandardError
        attr_reader :signo, :recorded

        def initialize(signal_name, signo, recorded)
          @signo = signo
          @recorded = recorded
          super("stopped by SIG#{signal_name}")
        end
      end

      # Fields the plan decides: a child's record never overrides them.
      PLANNED = %w[type id seq started_at workload model workers messages params ruby rep].freeze

      # quiet_wait: a QuietWait to call before each run (--wait-quiet), or nil.
      def initialize(catalog:, targets:, timeout:, writer:, progress:, quiet_wait: nil)
        @runner = Measure::Runner.new(catalog: catalog, timeout: timeout)
        @interference = Interference.new
        @quiet_wait = quiet_wait
        @targets = targets.to_h { |t| [t.name, t] }
        @writer = writer
        @progress = progress
        @digests = {}
      end

      # Returns the number of runs recorded.
      def collect(runs, first_seq:)
        @recorded = 0
        runs.each_with_index do |spec, i|
          @progress.started(spec.id)
          seq = first_seq + i
          unstoppable { @writer.started(spec.id, seq) }
          @in_flight = spec.id
          record = measure(spec, seq)
          unstoppable do
            @writer.append(record)
            @in_flight = nil
            @recorded += 1
          end
          report(record)
          @progress.finished
        end
        @recorded
      rescue SignalException => e
        # The Launcher has already killed the run in flight and its tree.
        unstoppable { @writer.interrupted(@in_flight) } if @in_flight
        signo = e.signo || Signal.list.fetch("INT")
        raise Stopped.new(Signal.signame(signo), signo, @recorded)
      ensure
        @progress.finish
      end

      private

      # A line is written whole: a second Ctrl-C waits until it is.
      def unstoppable(&block)
        Thread.handle_interrupt(SignalException => :never, &block)
      end

      def measure(spec, seq)
        started_at = Time.now.utc.iso8601(3)
        # The 1-minute load average as the run began: shows when something
        # else kept the machine busy during the collection (Analysis::Warnings).
        load = Measure::Machine.load_average&.first
        waited = @quiet_wait&.call
        before = @interference.sample
        outcome = @runner.call(spec, @targets.fetch(spec.ruby))
        after = @interference.sample
        planned = {"type" => "run", "id" => spec.id, "seq" => seq, "started_at" => started_at, "load_average_1m" => load}
          .merge(spec.to_h)
        checked(planned, outcome.except(*PLANNED).merge(@interference.record(before, after))
          .merge(waited ? {"waited_for_quiet" => waited.round(2)} : {}))
      end

      # The record as a reader will check it (Store::RunRecord): a child that
      # sent fields of the wrong type gets a failed run saying which, not a
      # line every report would skip.
      def checked(planned, outcome)
        record = planned.merge(outcome)
        Store::RunRecord.parse(Store::JsonSafe.record(record))
        record
      rescue Store::RunRecord::BadLine => e
        planned.merge(outcome.slice("whole_time", "user", "system", "stderr_tail", "settings"))
          .merge("status" => "failed", "failure" => "garbage", "reason" => "garbage on the result channel (fd 3): #{e.message}")
      end

      def report(record)
        return @progress.say("FAILED #{record["id"]}: #{Printable.name(record["reason"])}") if record["status"] == "failed"
        return unless record["digest"]

        # Said at once, not only at the end: a model computing something else
        # makes every figure after it meaningless.
        key = Analysis::DigestCheck.key(Plan::Configuration.of(record))
        seen = (@digests[key] ||= record["digest"])
        @progress.say("DIGEST MISMATCH #{record["id"]}: #{record["digest"]}, earlier runs gave #{seen}") unless seen == record["digest"]
      end
    end
  end
end
