# frozen_string_literal: true

require_relative "../base/errors"
require_relative "../base/plural"
require_relative "../store"
require_relative "recorded_plan"
require_relative "../measure/run_builder"
require_relative "../profile/stage"
require_relative "session"

module Ractorbench
  class Collection
    # Finishes a collection (`run --resume FILE`): the file locked first (no
    # second writer), then read; runs recorded are done, a run that took the
    # collector down with it twice is recorded as failed (Store::Marks), the
    # rest run. Its plan, timeout and Rubies are the header's, checked as a
    # command line is (RecordedPlan) before any line is written or cut.
    class Resume < Collection
      def initialize(path, quiet_wait:, first_run:, progress:, say:)
        @resume = path
        collecting(quiet_wait: quiet_wait, first_run: first_run, progress: progress, say: say)
      end

      def open
        writer = Store::Writer.resume(@resume)
        contents = Store.read(@resume)
        header = contents.header
        if header.merged?
          raise UsageError, "#{@resume} was written by `ractorbench merge`; resume each collection it joined, then merge again"
        end
        recorded = RecordedPlan.new(@resume, header, contents.runs, default_timeout: DEFAULT_TIMEOUT)
        writer.drop_partial_line
        timeout = recorded.timeout
        targets = recorded.targets.map { |t| t.probe!(timeout: timeout) }
        done = contents.runs.to_h { |r| [r.id, true] }
        @matrix = recorded.matrix
        pending = @matrix.runs.reject { |spec| done.key?(spec.id) }
        @say.call("ractorbench: warning: dropped a half-written last line; that run will run again") if contents.truncated
        @say.call("ractorbench: resuming #{@resume}: #{Plural.count(done.size, "run")} done, #{pending.size} to go (seed #{@matrix.seed})")
        seq = contents.runs.size + 1
        marks = Store::Marks.unfinished(@resume, done)
        pending, dead = pending.partition { |spec| (marks[spec.id]&.deaths || 0) < Store::Marks::DEATHS }
        dead.each_with_index { |spec, i| record_death(writer, spec, marks[spec.id], seq + i) }
        @session = Session.new(catalog: recorded.catalog, targets: targets, runs: pending, writer: writer, timeout: timeout,
          first_seq: seq + dead.size, suspects: marks.values.select(&:suspected).map(&:id),
          profile: Profile::Stage.resume(header.as_json, targets, say: @say), planned: @matrix.runs)
        self
      rescue
        writer&.close
        raise
      end

      private

      def record_death(writer, spec, deaths, seq)
        reason = "the collector died during this run, each of the #{deaths.deaths} times it ran (the run killed or " \
          "crashed ractorbench, or something else did); recorded as failed so the collection can finish"
        writer.append(Measure::RunBuilder.new(spec, seq: seq, started_at: deaths.started_at).failed("collector_died", reason))
        @progress.puts("ractorbench: FAILED #{spec.id}: #{reason}")
      end
    end
  end
end
