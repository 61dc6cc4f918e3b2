# frozen_string_literal: true

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

      def say(line)
        @io.puts(line)
      end

      # The terminal version, drawn by ruby-progressbar.
      class Bar < Measure::Progress
        def initialize(total, io)
          super(io)
          require "io/console"
          require "ruby-progressbar"
          @bar = ProgressBar.create(total: total, output: io, format: "%j%% %c/%C |%B| %e  %t",
            length: [IO.console&.winsize&.last.to_i, 120].select(&:positive?).min || 100)
        end

        def started(label)
          @bar.title = label
        end

        def finished
          @bar.increment
        end

        def finish
          @bar.finish unless @bar.finished?
        end

        def say(line)
          @bar.log(line)
        end
      end
    end
  end
end
