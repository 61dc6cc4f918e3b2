# frozen_string_literal: true

require "json"
require_relative "../measure/child_environment"
require_relative "../measure/output_tail"
require_relative "paths"

require_relative "../paths"
require_relative "../errors"

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
        "repeat" => "work(item) called a second time", "marshal" => "checking results with Marshal",
        "ractor" => "work(item) inside a ractor", "threads" => "work(item) in threads side by side",
        "fix" => "checking the suggested fix (a copy of the file with it, work inside a ractor)"
      }.freeze
      # Where the check first runs work, for a time limit met there.
      INSIDE = {"ractor" => "inside a ractor", "threads" => "in threads side by side", "fix" => "inside a ractor"}.freeze

      def initialize(target:, file:, module_name:, timeout:, sample: SAMPLE)
        @target = target
        @file = file
        @spec = {"file" => File.expand_path(file), "module" => module_name, "sample" => sample, "budget" => BUDGET}
        @timeout = timeout
      end

      # The final record of a child that passed; raises UsageError otherwise.
      def call
        lines, status, stderr = run_child
        record = lines.reverse.find { |l| l.key?("status") }
        stage = lines.reverse.find { |l| l.key?("stage") }&.fetch("stage")
        case record&.fetch("status")
        when "ok" then record
        when "bad_input" then raise UsageError, "#{Paths.short(record["location"])}: #{record["problem"]}"
        when "timeout" then raise UsageError, timeout_message(record["stage"] || stage, record)
        else raise UsageError, died_message(status, stage, stderr)
        end
      end

      private

      def run_child
        result_r, result_w = IO.pipe
        out_r, out_w = IO.pipe
        err_r, err_w = IO.pipe
        pid = Process.spawn(Measure::ChildEnvironment.for(@target), *@target.argv, SCRIPT, JSON.generate(@spec),
          3 => result_w, :out => out_w, :err => err_w, :in => File::NULL, :pgroup => true, :unsetenv_others => true)
        [result_w, out_w, err_w].each(&:close)
        reader = Thread.new { result_r.read.tap { result_r.close } }
        stderr = Measure::OutputTail.new(err_r)
        Measure::OutputTail.new(out_r)
        status = wait(pid)
        [parse(reader.value), status, stderr.lines(5)]
      end

      # Waits up to the time limit; then asks the child where it is
      # (SIGUSR1), and after a grace period kills its process group.
      def wait(pid)
        waiter = Thread.new { Process.wait2(pid).last }
        return waiter.value if waiter.join(@timeout)

        @timed_out = true
        signal(:USR1, pid)
        waiter.join(GRACE)
        signal(:KILL, -pid)
        waiter.value
      end

      def signal(name, pid)
        Process.kill(name, pid)
      rescue Errno::ESRCH, Errno::EPERM
        nil
      end

      def parse(text)
        text.to_s.lines.filter_map do |line|
          JSON.parse(line)
        rescue JSON::ParserError
          nil
        end
      end

      def timeout_message(stage, record)
        what = STAGES.fetch(stage.to_s, stage.to_s)
        where = record["location"] ? "#{Paths.short(record["location"])}: " : "#{@file}: "
        # A block's closing line says nothing; the line number still does.
        at = (record["source"] && !record["source"].match?(/\A(end|[}\])])\z/)) ? "; it was running `#{record["source"]}` when stopped" : ""
        hint = if record["finishes_serially"]
          " (#{INSIDE[record["inside"]]}; one item at a time it finishes: it blocks or loops only there)"
        elsif INSIDE[record["inside"]]
          " (#{INSIDE[record["inside"]]}, where the check runs it first)"
        else
          ""
        end
        "#{where}#{what} did not finish within #{format("%g", @timeout)}s (--timeout)#{at}#{hint}"
      end

      def died_message(status, stage, stderr)
        return timeout_message(stage, {}) if @timed_out

        how = status&.signaled? ? "was killed by SIG#{Signal.signame(status.termsig)}" : "exited with status #{status&.exitstatus.inspect}"
        last = stderr.reverse.find { |l| !l.strip.empty? }
        "#{@file}: the Ruby running it #{how} during #{STAGES.fetch(stage.to_s, "start-up")}#{": #{last.strip}" if last}"
      end
    end
  end
end
