# frozen_string_literal: true

require "time"
require_relative "base/printable"
require_relative "measure/runner"
require_relative "measure/run_builder"
require_relative "measure/interference"
require_relative "store"
require_relative "measure/progress"
require_relative "measure/machine"
require_relative "measure/sentinel"
require_relative "analysis/digest_check"

module Ractorbench
  # The collector: the loop in the driver's process that runs a plan's
  # pending runs one at a time, appending each record to the results file
  # as soon as it is known (a Collection, which plans, probes and finishes,
  # makes one for its collect step). A failed run is recorded and the
  # collection goes on. Before each run a "started" mark goes to the file,
  # so a run that kills the collector is known on --resume. Ctrl-C or
  # SIGTERM kills the run in flight (the Launcher) and ends the collection
  # with Stopped; the file stays complete up to the last finished run.
  #
  # A signal can also come from the run itself. One that reached the
  # collector alone while a run was in flight, not its whole process group
  # (Sentinel), may be either: the collection stops and the mark says so
  # (suspect). If the same run does it again (suspects: the ids that did
  # before, from the marks), it is the run's: the run is recorded as failed
  # and the collection goes on.
  class Collector
    # The collection was stopped by a signal; signo for the exit status;
    # suspect: the id of the run in flight when it came to the collector
    # alone (nil when it came to its process group, or between runs).
    class Stopped < StandardError
      attr_reader :signo, :recorded, :suspect

      # why: what stopped it, when no one sent the signal (SIGPIPE's status
      # for a standard error nobody reads any more).
      def initialize(signal_name, signo, recorded, suspect, why: nil)
        @signo = signo
        @recorded = recorded
        @suspect = suspect
        super(why ? "stopped: #{why}" : "stopped by SIG#{signal_name}")
      end
    end

    # The next run would not measure what was planned (Plan::Catalog#stale:
    # try's file changed since the check): the collection stops before it.
    class Stale < StandardError
      attr_reader :recorded

      def initialize(why, recorded)
        @recorded = recorded
        super(why)
      end
    end

    # Standard error, where progress and failures go, has no reader any
    # more (`run ... 2>&1 | head -1`): a stop, as Ctrl-C is.
    class Silenced < StandardError; end
    SILENCED = "standard error was closed (its reader went away), so no failure could be shown"

    # quiet_wait: a QuietWait to call before each run (--wait-quiet), or nil.
    def initialize(catalog:, targets:, timeout:, writer:, progress:, quiet_wait: nil, suspects: [])
      @catalog = catalog
      @runner = Measure::Runner.new(catalog: catalog, timeout: timeout)
      @interference = Measure::Interference.new
      @quiet_wait = quiet_wait
      @targets = targets.to_h { |t| [t.name, t] }
      @writer = writer
      @progress = progress
      @digests = {}
      @suspects = suspects
    end

    # Returns the number of runs recorded.
    def collect(runs, first_seq:)
      @recorded = 0
      runs.each_with_index do |spec, i|
        stale = @catalog.stale(spec)
        raise Stale.new(stale, @recorded) if stale

        progress(:started, spec.id)
        seq = first_seq + i
        Measure::Sentinel.ready
        unstoppable { @writer.started(spec.id, seq) }
        @in_flight = spec.id
        @alone = nil
        record = measure_or_blame(spec, seq)
        unstoppable do
          @writer.append(record)
          @in_flight = nil
          @recorded += 1
        end
        report(record)
        progress(:finished)
      end
      @recorded
    rescue SignalException => e
      # The Launcher has already killed the run in flight and its tree.
      signo = e.signo || Signal.list.fetch("INT")
      alone = @alone.nil? ? alone?(signo) : @alone
      suspect = (@in_flight if alone)
      unstoppable { @writer.interrupted(@in_flight, suspect: !suspect.nil?) } if @in_flight
      raise Stopped.new(Signal.signame(signo), signo, @recorded, suspect)
    rescue Silenced
      unstoppable { @writer.interrupted(@in_flight, why: SILENCED) }
      raise Stopped.new("PIPE", Signal.list.fetch("PIPE"), @recorded, nil, why: SILENCED)
    ensure
      begin
        progress(:finish)
      rescue Silenced
        nil
      end
    end

    private

    # The run's record; a signal to the collector alone during a run that
    # did that before is the run's doing: a failed run, and on we go.
    def measure_or_blame(spec, seq)
      measure(spec, seq)
    rescue SignalException => e
      signo = e.signo || Signal.list.fetch("INT")
      @alone = alone?(signo)
      raise unless @alone && @suspects.include?(spec.id)

      name = Signal.signame(signo)
      Measure::RunBuilder.new(spec, seq: seq).failed("signal", "sent SIG#{name} to its collector: it came to " \
        "ractorbench alone, not to its process group (as Ctrl-C, a closed terminal or a stopped job would), while this " \
        "run ran, here and the time before; the run's tree was killed and the collection went on")
    end

    # Whether a signal came to this process alone while a run was in flight.
    def alone?(signo) = !@in_flight.nil? && !Measure::Sentinel.heard?(Signal.signame(signo))

    # Progress and failures on standard error; a stream with no reader is Silenced.
    def progress(event, *args)
      @progress.public_send(event, *args)
    rescue Errno::EPIPE, Errno::EIO, IOError
      raise Silenced
    end

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
      planned = -> { Measure::RunBuilder.new(spec, seq: seq, started_at: started_at, load_average_1m: load) }
      seen = @interference.record(before, after)
      # Stopped while it ran, the run's own times may hold the stop (a child
      # blocked on a pipe we did not read): kept out of every verdict.
      seen["disturbed"] = true if outcome.key?("collector_stopped")
      checked(planned, outcome, seen.merge(waited ? {"waited_for_quiet" => waited.round(2)} : {}))
    end

    # The record as a reader will check it (Store::RunRecord): a child that
    # sent fields of the wrong type gets a failed run saying which, not a
    # line every report would skip. planned: a new RunBuilder of the run.
    def checked(planned, outcome, seen)
      record = planned.call.run(outcome, seen)
      safe = Store::JsonSafe.record(record)
      Store::RunRecord.parse(safe)
      size = JSON.generate(safe).bytesize
      if size > Store::BoundedLines::RUN_LINE
        raise Store::RunRecord::BadLine, "its record makes a line of #{size / 1024 / 1024} MB, more than a results file's " \
          "line may hold (#{Store::BoundedLines::RUN_LINE / 1024 / 1024} MB)"
      end
      record
    rescue Store::RunRecord::BadLine, *Measure::RunBuilder::INVALID => e
      kept = %w[whole_time user system stderr_tail settings collector_stopped].select { |k| outcome.key?(k) }.to_h { |k| [k, outcome[k]] }
      planned.call.failed("garbage", "garbage on the result channel (fd 3): #{e.message}", kept)
    end

    def report(record)
      run = Store::RunRecord.new(record)
      if (stopped = run.collector_stopped)
        progress(:say, "DISTURBED #{run.id}: ractorbench was stopped for #{format("%.1f", stopped)}s while it ran " \
          "(Ctrl-Z, SIGSTOP, a suspended machine); the stop is not in its time, and the run is kept out of verdicts")
      end
      return progress(:say, "FAILED #{run.id}: #{Printable.name(run.reason)}") if run.failed?
      return unless run.digest

      # Said at once, not only at the end: a model computing something else
      # makes every figure after it meaningless.
      key = Analysis::DigestCheck.key(run.configuration)
      seen = (@digests[key] ||= run.digest)
      progress(:say, "DIGEST MISMATCH #{run.id}: #{run.digest}, earlier runs gave #{seen}") unless seen == run.digest
    end
  end
end
