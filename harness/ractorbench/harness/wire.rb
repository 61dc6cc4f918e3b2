# frozen_string_literal: true

module Ractorbench
  module Harness
    # Length-prefixed Marshal frames over a pipe, for the models that talk to
    # forked workers.
    module Wire
      def self.frame(object)
        data = Marshal.dump(object)
        [data.bytesize].pack("N") << data
      end

      def self.write(io, object)
        io.write(frame(object))
      end

      # Reads frames through a buffer, so one read(2) can bring many.
      class Reader
        CHUNK = 65_536

        attr_reader :io

        def initialize(io)
          @io = io
          @buffer = "".b
          # Where the next frame starts: frames are read off the buffer by
          # moving this, not by copying what is left after each one.
          @offset = 0
        end

        # The next frame's object, blocking; nil at end of file.
        def read
          loop do
            frame = next_frame
            return frame.first if frame

            chunk = @io.read_nonblock(CHUNK, exception: false)
            return nil if chunk.nil?

            (chunk == :wait_readable) ? IO.select([@io]) : append(chunk)
          end
        end

        def frame_buffered?
          left = @buffer.bytesize - @offset
          left >= 4 && left >= 4 + @buffer.unpack1("N", offset: @offset)
        end

        # Every complete frame now readable without blocking; nil at end
        # of file with nothing left.
        def available
          chunk = @io.read_nonblock(CHUNK, exception: false)
          return nil if chunk.nil? && @offset == @buffer.bytesize

          append(chunk) if chunk.is_a?(String)
          frames = []
          while (frame = next_frame)
            frames << frame.first
          end
          (frames.empty? && chunk.nil?) ? nil : frames
        end

        private

        # [object] for a whole frame at the buffer's head, else nil.
        def next_frame
          left = @buffer.bytesize - @offset
          return nil if left < 4

          size = @buffer.unpack1("N", offset: @offset)
          return nil if left < 4 + size

          data = @buffer.byteslice(@offset + 4, size)
          @offset += 4 + size
          [Marshal.load(data)] # rubocop:disable Security/MarshalLoad -- our own worker's frames
        end

        # Drops what was read before adding more, so the buffer holds at most
        # one read's worth beyond the frames not yet taken.
        def append(chunk)
          if @offset.positive?
            @buffer = @buffer.byteslice(@offset, @buffer.bytesize - @offset)
            @offset = 0
          end
          @buffer << chunk
        end
      end
    end
  end
end
