# frozen_string_literal: true

require_relative "result_channel"

module Ractorbench
  module Measure
    # Drains a child's stdout, stderr or result channel in the background (a
    # full pipe would stall the child) and keeps its first and last bytes: a
    # crash's "[BUG]" line comes first, an exception's message last. Reading
    # stops at the pipe's end or at #finish's deadline, whichever is first: a
    # process that escaped the run may hold the pipe open for ever.
    class Measure::OutputTail
      LIMIT = 16 * 1024

      attr_reader :bytes_read

      # keep: how many bytes to keep at each end; a result channel keeps all
      # up to its limit (head), and counts the rest.
      def initialize(io, keep: LIMIT)
        @io = io
        @keep = keep
        @buffer = +""
        @head = +""
        @bytes_read = 0
        @thread = Thread.new do
          while (chunk = io.readpartial(65_536))
            @bytes_read += chunk.bytesize
            @head << chunk.byteslice(0, @keep - @head.bytesize) if @head.bytesize < @keep
            @buffer << chunk
            @buffer = @buffer.byteslice(-LIMIT, LIMIT) if @buffer.bytesize > LIMIT
          end
        rescue IOError, SystemCallError
          nil
        ensure
          close
        end
      end

      # Whether a result channel has carried the measured-part mark so far
      # (read while the child still runs).
      def measured?
        ResultChannel.decode(@head.dup).first.any? { |r| r.key?(ResultChannel::MEASURED) }
      end

      # The pipe's inode, to find who else holds it open.
      def inode
        @io.stat.ino
      rescue IOError, SystemCallError
        nil
      end

      # Waits for the pipe's end until the deadline (monotonic seconds); true
      # if it came.
      def ended_by?(deadline)
        !@thread.join([deadline - now, 0].max).nil?
      end

      # Stops reading, whatever is still holding the pipe.
      def finish(deadline)
        ended_by?(deadline) || (close && @thread.join(1))
        self
      end

      # The bytes kept from the start, once reading has stopped.
      def head
        @thread.join
        @head
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

      def close
        @io.close unless @io.closed?
        true
      rescue IOError
        true
      end

      def text(bytes)
        bytes.dup.force_encoding(Encoding::UTF_8).scrub
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
