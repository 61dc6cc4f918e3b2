# frozen_string_literal: true

module Ractorbench
  # Drains a child's stdout or stderr in the background (a full pipe would
  # stall the child) and keeps only the last lines, for failure reports.
  class OutputTail
    LIMIT = 16 * 1024

    def initialize(io)
      @buffer = +""
      @thread = Thread.new do
        while (chunk = io.read(4096))
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
      text = @buffer.dup.force_encoding(Encoding::UTF_8).scrub
      text.lines.last(count).map(&:chomp)
    end
  end
end
