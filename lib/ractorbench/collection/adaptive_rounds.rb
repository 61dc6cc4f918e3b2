# frozen_string_literal: true

require_relative "../analysis"
require_relative "../base/console"
require_relative "../base/plural"
require_relative "../store"
require_relative "../measure/progress"

module Ractorbench
  class Collection
    # --reps auto: more repetitions of the configurations whose median is
    # still uncertain, a block at a time, within the time budget. One line
    # tells how far it got: redrawn in place on a terminal, said once at
    # the end elsewhere; a failure still gets its own line.
    class AdaptiveRounds
      # The collector's progress during a round: the status line is cleared
      # before a line is said (a failure) and drawn again after it, so the
      # two never share a line of the terminal.
      class UnderStatus < Measure::Progress
        def initialize(io, redraw, status)
          super(io)
          @redraw = redraw
          @status = status
        end

        def say(line)
          @redraw.call(nil)
          super
          @redraw.call(@status)
        end
      end

      # adaptive: a Plan::AdaptiveReps; deadline: a monotonic clock reading;
      # io: where the line goes.
      def initialize(adaptive, deadline:, io:)
        @adaptive = adaptive
        @deadline = deadline
        @io = io
      end

      # collector: a callable (count, progress:) giving a Collector.
      def run(session, collector)
        rng = Random.new(session.runs.size)
        seq = session.first_seq + session.runs.size
        rounds = 0
        loop do
          break if Process.clock_gettime(Process::CLOCK_MONOTONIC) >= @deadline

          block = @adaptive.next_block(Analysis.new(Store.read(session.writer.path), first_run: "include"), rng)
          break if block.empty?

          rounds += 1
          redraw("ractorbench: --reps #{@adaptive}: round #{rounds}, #{Plural.count(block.size, "configuration")} " \
            "not yet within ±5%: one more run each")
          collector.call(block.size, progress: UnderStatus.new(@io, method(:redraw), @line)).collect(block, first_seq: seq)
          seq += block.size
        end
        redraw(nil)
        return if rounds.zero?

        @io.puts("ractorbench: --reps #{@adaptive}: #{Plural.count(rounds, "more round")} of the configurations " \
          "not yet within ±5% (#{Plural.count(seq - session.first_seq, "run")} in all)")
      end

      private

      # One status line, drawn over the last on a terminal (nil clears it).
      def redraw(line)
        @line = line
        return unless @io.tty?

        width = Console.new(@io).width - 1
        @io.print("\r\e[K#{line.to_s[0, width]}")
        @io.flush
      end
    end
  end
end
