# frozen_string_literal: true

require "stringio"
require "tmpdir"

module Ractorbench
  module Store
    # The collector's own copy of every byte it has written to a results
    # file, where no run can reach it by a path: an unlinked temporary file
    # (O_TMPFILE where there is one), or memory if none can be made. A run
    # that truncates or overwrites the results file in place (the open file
    # itself is what it damages) cannot damage this; the Writer compares the
    # two and writes the file back whole from here.
    class ShadowCopy
      CHUNK = 1 << 20

      # source: the results file, read from its start. The temporary file
      # is written with write(2) alone, no buffer: when its folder (TMPDIR)
      # fills, nothing is left half-flushed, and the bytes written so far
      # move to memory, where the copy goes on.
      def initialize(source)
        @size = 0
        @io = unlinked_file || memory
        loop { append(source.pread(CHUNK, @size)) }
      rescue EOFError
        # the whole source is in
      end

      # size: the bytes held; moved: the error that sent the copy from its
      # temporary file to memory (nil while it has not).
      attr_reader :size, :moved

      def append(data)
        store(data)
      rescue IOError, SystemCallError => e
        # No room left where it lives: memory holds it from now on.
        @moved ||= e
        to_memory
        store(data)
      end

      def truncate(size)
        @io.truncate(size)
        @size = size
      end

      # Whether file holds exactly these bytes.
      def same_as?(file)
        return false unless file.size == size

        offset = 0
        while offset < size
          length = [CHUNK, size - offset].min
          return false unless file.pread(length, offset) == pread(length, offset)

          offset += length
        end
        true
      rescue IOError, SystemCallError # EOFError is an IOError
        false
      end

      # Writes the whole copy to io.
      def write_to(io)
        each_chunk { |chunk| io.write(chunk) }
        io.flush
        io
      end

      # The number of lines that start like a run's.
      def runs
        count = 0
        at_start = true
        each_chunk do |chunk|
          chunk.each_line do |line|
            count += 1 if at_start && line.start_with?('{"type":"run"')
            at_start = line.end_with?("\n")
          end
        end
        count
      end

      def close
        @io.close unless @io.closed?
      rescue IOError, SystemCallError
        nil
      end

      private

      def store(data)
        if @io.is_a?(StringIO)
          @io.seek(@size)
          @io.write(data)
          return @size += data.bytesize
        end

        written = 0
        written += @io.pwrite(data.byteslice(written..), @size + written) while written < data.bytesize
        @size += written
      ensure
        @io.truncate(@size) if !@io.is_a?(StringIO) && $! && !@io.closed?
      end

      def to_memory
        copy = memory
        each_chunk { |chunk| copy.write(chunk) }
        close
        @io = copy
      end

      def each_chunk
        offset = 0
        while offset < @size
          chunk = pread([CHUNK, @size - offset].min, offset)
          yield chunk
          offset += chunk.bytesize
        end
      end

      def pread(length, offset)
        return @io.pread(length, offset) if @io.respond_to?(:pread)

        @io.seek(offset)
        @io.read(length)
      end

      def unlinked_file
        if File.const_defined?(:TMPFILE)
          File.open(Dir.tmpdir, File::RDWR | File::TMPFILE, 0o600).tap(&:binmode)
        else
          path = File.join(Dir.tmpdir, "ractorbench-copy-#{Process.pid}-#{rand(1 << 32)}")
          File.open(path, File::RDWR | File::CREAT | File::EXCL, 0o600).tap { File.unlink(path) }.tap(&:binmode)
        end
      rescue SystemCallError, IOError
        nil
      end

      def memory = StringIO.new("".b)
    end
  end
end
