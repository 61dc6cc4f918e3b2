# frozen_string_literal: true

require "stringio"
require "tmpdir"
require_relative "bounded_lines"

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

      # source: the results file, read from its start.
      def initialize(source)
        @io = unlinked_file || memory
        copy(source, @io)
      end

      def size = @io.size

      def append(data)
        @io.seek(0, IO::SEEK_END)
        @io.write(data)
      rescue IOError, SystemCallError
        # No room left where it lives: memory holds it from now on.
        @io = copy(@io, memory)
        @io.write(data)
      end

      def truncate(size)
        @io.truncate(size)
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
        copy(@io, io)
      end

      # The number of lines that start like a run's.
      def runs
        count = 0
        @io.rewind
        BoundedLines.each_piece(@io) { |piece, at_start| count += 1 if at_start && piece.start_with?('{"type":"run"') }
        count
      end

      def close
        @io.close unless @io.closed?
      end

      private

      def pread(length, offset)
        return @io.pread(length, offset) if @io.respond_to?(:pread)

        @io.seek(offset)
        @io.read(length)
      end

      def copy(from, to)
        from.rewind
        IO.copy_stream(from, to)
        to
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
