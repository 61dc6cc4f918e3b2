# frozen_string_literal: true

module Ractorbench
  module Measure
    # Classifies how a child ended: a clean record, an unsupported model, or a
    # failure (timeout, crash by signal, garbage on the result channel,
    # processes left running, exception, wrong result, silent exit), each
    # with a reason a person can act on.
    class Measure::Outcome
      # launched: a Launcher::Result; timeout: the limit it ran under.
      def initialize(launched, timeout:)
        @launched = launched
        @status = launched.status
        @timeout = timeout
        @child = launched.channel_problem ? nil : launched.record
        @stderr = launched.stderr.lines
        @stderr_head = launched.stderr.first_lines(5)
      end

      def to_h
        record = {"whole_time" => @launched.whole_time.round(6)}
        record.merge!(@child.except("status", "reason")) if @child
        status, failure, reason = classify
        record.merge!("status" => status, "failure" => failure, "reason" => reason)
        unless status == "ok"
          record["stderr_head"] = @stderr_head unless @stderr_head.empty? || @stderr_head == @stderr.first(5)
          record["stderr_tail"] = @stderr
        end
        record.compact
      end

      private

      def classify
        return ["failed", "timeout", timeout_reason] if @launched.timed_out
        return ["failed", "crash", "crashed: killed by SIG#{Signal.signame(@status.termsig)}#{bug_report}"] if @status.signaled?
        return ["failed", "garbage", "garbage on the result channel (fd 3): #{@launched.channel_problem}"] if @launched.channel_problem
        return escaped unless @launched.escaped.empty?

        case @child&.fetch("status", nil)
        when "ok"
          @status.success? ? ["ok", nil, nil] : ["failed", "exit", "exited with status #{@status.exitstatus} after reporting"]
        when "unsupported" then ["unsupported", nil, unsupported_reason]
        when "wrong_result" then ["failed", "wrong_result", "wrong result: #{@child["reason"]}"]
        when "error" then ["failed", "exception", "raised #{@child["reason"]}"]
        else ["failed", "exit", "exited with status #{@status.exitstatus} without a result#{last_words}"]
        end
      end

      def timeout_reason
        measured = @launched.measured
        return "timed out after #{@timeout}s (--timeout); the child's process tree was killed" unless measured

        "its measured part ended after #{format("%.1f", measured)}s, then checking its results passed another #{@timeout}s " \
          "(--timeout); the child's process tree was killed"
      end

      # Its CPU and memory went uncounted and it would have run on into the
      # next measurement: the run cannot be trusted, whatever it reported.
      def escaped
        pids = @launched.escaped
        ["failed", "escaped", "left #{pids.size} process#{"es" if pids.size > 1} running outside its process group " \
          "(pid #{pids.join(", ")}), killed: a run must end every process it starts"]
      end

      def unsupported_reason
        return "not measured: #{@child["reason"]}" if @child["scope"] == "workload"

        "not supported on this Ruby: #{@child["reason"]}"
      end

      # Ruby answers a segfault with a "[BUG] Segmentation fault" report and
      # abort(), so the signal alone (SIGABRT) would hide what happened.
      def bug_report
        line = @stderr_head.find { |l| l.include?("[BUG]") }
        line ? " after #{line[/\[BUG\].*/].strip}" : ""
      end

      def last_words
        line = @stderr.reverse.find { |l| !l.strip.empty? }
        line ? ": #{line.strip}" : ""
      end
    end
  end
end
