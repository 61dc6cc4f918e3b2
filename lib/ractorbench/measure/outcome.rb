# frozen_string_literal: true

require_relative "../../../harness/ractorbench/harness/fields"

module Ractorbench
  module Measure
    # Classifies how a child ended: a clean record, an unsupported model, or a
    # failure (timeout, crash by signal, garbage on the result channel,
    # processes left running, exception, wrong result, silent exit), each
    # with a reason a person can act on.
    class Measure::Outcome
      # What the child said of its run, as it sent it: its word for how the
      # run went (ok, unsupported, wrong_result, error), why, whose limit an
      # unsupported run met (scope "workload": the workload's, not this
      # Ruby's), and its fields for the record (all it sent but status and reason).
      ChildAnswer = Struct.new(:status, :reason, :scope, :fields, keyword_init: true) do
        # sent: the Hash the child sent on the result channel.
        def self.of(sent)
          new(status: sent["status"], reason: sent["reason"], scope: sent["scope"], fields: sent.except("status", "reason").compact)
        end
      end

      # launched: a Launcher::Result; timeout: the limit it ran under.
      def initialize(launched, timeout:)
        @launched = launched
        @status = launched.status
        @timeout = timeout
        sent = launched.record unless launched.channel_problem
        @child = sent && ChildAnswer.of(sent)
        @fields, @fields_problem = child_fields
        @stderr = launched.stderr.lines
        @stderr_head = launched.stderr.first_lines(5)
      end

      def to_h = record.to_h

      # The child's fields and the driver's, each by name through the field
      # table (Harness::Fields::Record): a child that wrote a field of the
      # plan's or the driver's, or one no table declares, raises Clash or
      # UnknownField (a failed run naming it: garbage on the result channel).
      def record
        status, failure, reason = classify
        driver = {"status" => status, "failure" => failure, "reason" => reason}
        unless status == "ok"
          driver["stderr_head"] = @stderr_head unless @stderr_head.empty? || @stderr_head == @stderr.first(5)
          driver["stderr_tail"] = @stderr
        end
        record = Harness::Fields::Record.new(:driver, "the collector")
        record["whole_time"] = whole_time.round(6)
        record["collector_stopped"] = @launched.stopped.round(3) if stopped?
        record.merge!(@fields) if @fields
        record.merge!(driver.compact)
      end

      private

      def stopped? = @launched.stopped.to_f.positive?

      # Stopped, this process saw the child end only when it ran again: the
      # stop is taken out, and what is left is at least the measured part.
      def whole_time
        stopped? ? [@launched.whole_time, @launched.measured.to_f].max : @launched.whole_time
      end

      # [the child's fields as a Record, nil] or [nil, what is wrong with them].
      def child_fields
        return [nil, nil] unless @child

        [Harness::Fields::Record.new(%i[child worker], "the child").merge!(@child.fields), nil]
      rescue Harness::Fields::Clash, Harness::Fields::UnknownField => e
        [nil, e.message]
      end

      def classify
        return ["failed", "timeout", timeout_reason] if @launched.timed_out
        return ["failed", "crash", "crashed: killed by SIG#{Signal.signame(@status.termsig)}#{bug_report}"] if @status.signaled?
        return ["failed", "garbage", "garbage on the result channel (fd 3): #{@launched.channel_problem}"] if @launched.channel_problem
        return ["failed", "garbage", "garbage on the result channel (fd 3): #{@fields_problem}"] if @fields_problem
        return escaped unless @launched.escaped.empty?

        case @child&.status
        when "ok"
          @status.success? ? ["ok", nil, nil] : ["failed", "exit", "exited with status #{@status.exitstatus} after reporting"]
        when "unsupported" then ["unsupported", nil, unsupported_reason]
        when "wrong_result" then ["failed", "wrong_result", "wrong result: #{@child.reason}"]
        when "error" then ["failed", "exception", "raised #{@child.reason}"]
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
        return "not measured: #{@child.reason}" if @child.scope == "workload"

        "not supported on this Ruby: #{@child.reason}"
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
