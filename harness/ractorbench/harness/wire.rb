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
        end

        # The next frame's object, blocking; nil at end of file.
        def read
          loop do
            frame = next_frame
            return frame.first if frame

            chunk = @io.read_nonblock(CHUNK, exception: false)
            return nil if chunk.nil?

            (chunk == :wait_readable) ? IO.select([@io]) : @buffer << chunk
          end
        end

        def frame_buffered?
          @buffer.bytesize >= 4 && @buffer.bytesize >= 4 + @buffer.unpack1("N")
        end

        # Every complete frame now readable without blocking; nil at end
        # of file with nothing left.
        def available
          chunk = @io.read_nonblock(CHUNK, exception: false)
          return nil if chunk.nil? && @buffer.empty?

          @buffer << chunk if chunk.is_a?(String)
          frames = []
          while (frame = next_frame)
            frames << frame.first
          end
          (frames.empty? && chunk.nil?) ? nil : frames
        end

        private

        # [object] for a whole frame at the buffer's head, else nil.
        def next_frame
          return nil if @buffer.bytesize < 4

          size = @buffer.unpack1("N")
          return nil if @buffer.bytesize < 4 + size

          data = @buffer.byteslice(4, size)
          @buffer = @buffer.byteslice(4 + size, @buffer.bytesize)
          [Marshal.load(data)] # rubocop:disable Security/MarshalLoad -- our own worker's frames
        end
      end
    end
  end
end
