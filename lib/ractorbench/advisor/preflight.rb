# frozen_string_literal: true

require_relative "../measure/launcher"
require_relative "paths"
require_relative "check_record"

require_relative "../base/paths"
require_relative "../base/errors"
require_relative "../../../harness/ractorbench/harness/model"

module Ractorbench
  module Advisor
    # Runs harness/try/preflight.rb in a child of the Ruby under test: work
    # first inside a real ractor and in threads side by side (every problem
    # followed, the fix checked on a copy of the file), then the contract, a
    # few items timed serially and Marshal, in a few seconds. Bad input
    # becomes a UsageError naming the line of the user's file; what the
    # models will meet comes back as facts.
    class Preflight
      SCRIPT = File.join(HARNESS_DIR, "try", "preflight.rb")
      SAMPLE = 8
      BUDGET = 1.0
      # After the time limit the child gets this long to say where it was.
      GRACE = 2.0

      STAGES = {
        "load" => "loading the file", "items" => "items(n)", "work" => "work(item)",
        "repeat" => "work(item) called a second time", **Harness::Model::CHECKS,
        "fix" => "checking the suggested fix (a copy of the file with it, work inside a ractor)"
      }.freeze
      # Where the check first runs work, for a time limit met there.
      INSIDE = {"ractor" => "inside a ractor", "threads" => "in threads side by side", "fix" => "inside a ractor"}.freeze

      # sources: {path => text} to load in place of the user's files (the
      # check's own copy); ractor_only: only work inside a ractor.
      def initialize(target:, file:, module_name:, timeout:, sample: SAMPLE, sources: nil, ractor_only: false)
        @target = target
        @file = file
        @spec = {"file" => File.expand_path(file), "module" => module_name, "sample" => sample, "budget" => BUDGET,
                 "sources" => sources, "ractor_only" => (true if ractor_only)}.compact
        @timeout = timeout
      end

      # The final record of a child that passed (CheckRecord); raises
      # UsageError otherwise.
      def call
        lines, status, stderr = run_child
        record = lines.reverse.find { |l| l.key?("status") }
        stage = lines.reverse.find { |l| l.key?("stage") }&.fetch("stage")
        stop = CheckStop.from(record)
        case stop&.status
        when "ok" then CheckRecord.from(record)
        when "bad_input" then raise UsageError, "#{Paths.short(stop.location)}: #{stop.problem}"
        when "timeout" then raise UsageError, timeout_message(stop.stage || stage, stop)
        else raise UsageError, died_message(status, stage, stderr)
        end
      end

      private

      # The check's records, how it ended and its last lines of stderr,
      # through the launcher every run uses; at the time limit the child is
      # first asked where it is (SIGUSR1) and gets GRACE seconds to say.
      def run_child
        launched = Measure::Launcher.new(@target, SCRIPT, timeout: @timeout, grace: [:USR1, GRACE]).call(@spec)
        @timed_out = launched.timed_out
        garbage!(launched.channel_problem) if launched.channel_problem && !@timed_out && !launched.status.signaled?
        [launched.records, launched.status, launched.stderr.lines(5)]
      end

      def garbage!(problem)
        raise UsageError, "#{@file}: the check's records could not be read: garbage on the result channel (#{problem}); " \
          "does the work write to file descriptor 3?"
      end

      def timeout_message(stage, stop)
        what = STAGES.fetch(stage.to_s, stage.to_s)
        where = stop.location ? "#{Paths.short(stop.location)}: " : "#{@file}: "
        # A block's closing line says nothing; the line number still does.
        at = (stop.source && !stop.source.match?(/\A(end|[}\])])\z/)) ? "; it was running `#{stop.source}` when stopped" : ""
        inside = INSIDE[stop.inside]
        hint = if stop.finishes_serially
          " (#{inside}; one item at a time it finishes: it blocks or loops only there)"
        elsif inside
          " (#{inside}, where the check runs it first)"
        else
          ""
        end
        "#{where}#{what} did not finish within #{format("%g", @timeout)}s (--timeout)#{at}#{hint}"
      end

      def died_message(status, stage, stderr)
        return timeout_message(stage, CheckStop.new) if @timed_out

        how = status&.signaled? ? "was killed by SIG#{Signal.signame(status.termsig)}" : "exited with status #{status&.exitstatus.inspect}"
        last = stderr.reverse.find { |l| !l.strip.empty? }
        "#{@file}: the Ruby running it #{how} during #{STAGES.fetch(stage.to_s, "start-up")}#{": #{last.strip}" if last}"
      end
    end
  end
end
