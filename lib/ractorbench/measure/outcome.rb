# frozen_string_literal: true

module Ractorbench
  module Measure
    # Classifies how a child ended: a clean record, an unsupported model, or a
    # failure (timeout, crash by signal, exception, wrong result, silent exit),
    # each with a reason a person can act on.
    class Measure::Outcome
      def initialize(status:, whole_time:, timed_out:, child:, stderr:)
        @status = status
        @whole_time = whole_time
        @timed_out = timed_out
        @child = parse(child)
        @stderr = stderr.lines
        @stderr_head = stderr.first_lines(5)
      end

      def to_h
        record = {"whole_time" => @whole_time.round(6)}
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
        return ["failed", "timeout", "timed out after #{@timed_out}s (--timeout); the child's process group was killed"] if @timed_out
        return ["failed", "crash", "crashed: killed by SIG#{Signal.signame(@status.termsig)}#{bug_report}"] if @status.signaled?

        case @child&.fetch("status", nil)
        when "ok"
          @status.success? ? ["ok", nil, nil] : ["failed", "exit", "exited with status #{@status.exitstatus} after reporting"]
        when "unsupported" then ["unsupported", nil, unsupported_reason]
        when "wrong_result" then ["failed", "wrong_result", "wrong result: #{@child["reason"]}"]
        when "error" then ["failed", "exception", "raised #{@child["reason"]}"]
        else ["failed", "exit", "exited with status #{@status.exitstatus} without a result#{last_words}"]
        end
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

      def parse(text)
        return nil if text.nil? || text.empty?

        record = Marshal.load(text) # rubocop:disable Security/MarshalLoad -- our own child's record
        record.is_a?(Hash) ? record : nil
      rescue TypeError, ArgumentError
        nil
      end
    end
  end
end
