# frozen_string_literal: true

module Ractorbench
  module Measure
    # Drains a child's stdout or stderr in the background (a full pipe would
    # stall the child) and keeps its first and last lines for failure reports:
    # a crash's "[BUG]" line comes first, an exception's message last.
    class Measure::OutputTail
      LIMIT = 16 * 1024

      def initialize(io)
        @buffer = +""
        @head = +""
        @thread = Thread.new do
          while (chunk = io.read(4096))
            @head << chunk if @head.bytesize < LIMIT
            @buffer << chunk
            @buffer = @buffer.byteslice(-LIMIT, LIMIT) if @buffer.bytesize > LIMIT
          end
        rescue IOError
          nil
        ensure
          io.close unless io.closed?
        end
      end

      def lines(count = 10)
        @thread.join
        text(@buffer).lines.last(count).map(&:chomp)
      end

      def first_lines(count = 10)
        @thread.join
        text(@head).lines.first(count).map(&:chomp)
      end

      private

      def text(bytes)
        bytes.dup.force_encoding(Encoding::UTF_8).scrub
      end
    end
  end
end
