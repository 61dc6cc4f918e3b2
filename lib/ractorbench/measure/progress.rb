# frozen_string_literal: true

require_relative "../base/console"
require_relative "../base/plural"

module Ractorbench
  module Measure
    # A progress line with an ETA while a collection runs, on a terminal only;
    # elsewhere (CI logs, pipes) only the failures are printed.
    class Measure::Progress
      def self.for(total, io: $stderr)
        io.tty? ? Bar.new(total, io) : new(io)
      end

      def initialize(io)
        @io = io
      end

      def started(_label) = nil
      def finished = nil
      def finish = nil

      # Wrapped when COLUMNS gives a width (a log keeps its lines whole).
      def say(line)
        @io.puts(Console.new(@io).present(line))
      end

      # The terminal version, drawn by ruby-progressbar on one line that is
      # always shorter than the terminal: a line that reached the last column
      # would wrap, and every redraw (a carriage return goes back to the
      # start of the last line only) would leave the wrapped part behind.
      # The run's label is cut to fit, never the bar, and finishing clears
      # the line: what stays on the screen is the failures and one summary.
      class Bar < Measure::Progress
        # "100% 132/132 |" ... "| ETA: 00:00:00  " around the bar and the label.
        FORMAT = "%j%% %c/%C |%B|%e  %t" # %e brings its own leading space
        MIN_BAR = 10
        # "100% " + " |" + "| ETA: 00:00:00  ": the format's fixed parts, besides the counts.
        FIXED = 5 + 2 + 17

        def initialize(total, io)
          super(io)
          require "ruby-progressbar"
          @total = total
          @width = Console.new(io).width - 1
          @started_at = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          # autofinish would print the last bar with a newline: finish clears it instead.
          @bar = ProgressBar.create(total: total, output: io, format: FORMAT, length: @width, autofinish: false,
            title: "")
        end

        def started(label)
          @bar.title = fit(label)
        end

        def finished
          @bar.increment
        end

        def finish
          return if @done

          @done = true
          clear
          seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - @started_at
          @io.puts("ractorbench: #{Plural.count(@bar.progress, "run")} done in #{format("%.0f", seconds)} s")
        end

        def say(line)
          @bar.log(Console.wrap(line, @width))
        end

        private

        # What is left of the line for the label once the bar has MIN_BAR.
        def fit(label)
          room = @width - FIXED - (2 * @total.to_s.length + 1) - MIN_BAR
          return "" if room < 4

          (label.length > room) ? "#{label[0, room - 1]}…" : label
        end

        def clear
          @io.print("\r#{" " * @width}\r")
          @io.flush
        end
      end
    end
  end
end
