# frozen_string_literal: true

require "json"
require "strscan"
require_relative "run_record"
require_relative "run_table"

module Ractorbench
  module Store
    # One stretch of a results file's run lines, from a line start to before
    # another, read into its own RunTable. A line of the wrong shape (not JSON,
    # not UTF-8, wrong types) is skipped and listed with its number within
    # the stretch; a cut last line of the file is the run a collector was
    # writing when it stopped, not damage.
    #
    # The stretch is read a megabyte at a time and scanned in place: a line
    # its configuration's template takes (Columns::LineTemplate) is folded
    # from the buffer without becoming a String of its own; any other line
    # is cut out, parsed and folded field by field.
    class LineRange
      # reader: the process that read it; templated: how many of its lines
      # were folded by template.
      Result = Struct.new(:table, :skipped, :truncated, :lines, :reader, :templated)

      CHUNK = 1 << 20
      NEWLINE = /\n/

      # file_size: where the file ended when reading began.
      def self.read(path, from, to, source, file_size)
        File.open(path, "rb") do |file|
          file.seek(from)
          new(file, from, to, source, file_size).result
        end
      end

      # The rest of a pipe (report /dev/stdin): no offsets to read back from.
      def self.read_stream(io) = new(io, 0, Float::INFINITY, nil, Float::INFINITY).result

      def initialize(file, from, to, source, file_size)
        @file = file
        @to = to
        @source = source
        @file_size = file_size
        @table = RunTable.new(source)
        @skipped = []
        @truncated = false
        @number = 0
        @templated = 0
        @offset = from
      end

      def result
        rest = read_whole_lines
        fold_line(rest, @offset) unless rest.empty? # a last line with no newline: cut, or the file's last
        Result.new(@table.settled, @skipped, @truncated, @number, Process.pid, @templated)
      end

      private

      # Folds every line that ends in a newline; gives back what is left.
      def read_whole_lines
        rest = "".b
        while (chunk = next_chunk(rest.bytesize))
          rest << chunk
          last = rest.rindex("\n") or next
          fold_lines(rest.byteslice(0, last + 1))
          rest = rest.byteslice(last + 1, rest.bytesize - last - 1)
        end
        rest
      end

      def next_chunk(held)
        wanted = [CHUNK, @to - @offset - held].min
        wanted.positive? ? @file.read(wanted) : nil
      end

      # lines: whole lines, each ending in a newline.
      def fold_lines(lines)
        lines.force_encoding(Encoding::UTF_8)
        # A template is matched in place only on valid UTF-8; a buffer with a
        # bad byte goes line by line, and the bad line is skipped.
        unless lines.valid_encoding?
          lines.each_line do |line|
            fold_line(line, @offset)
            @offset += line.bytesize
          end
          return
        end

        scanner = StringScanner.new(lines)
        until scanner.eos?
          start = scanner.pos
          if @table.add_scanned(scanner, @source && @offset + start)
            @number += 1
            @templated += 1
          else
            scanner.pos = start
            fold_line(scanner.scan_until(NEWLINE), @offset + start)
          end
        end
        @offset += lines.bytesize
      end

      def fold_line(line, offset)
        @number += 1
        record = Store.parse_line(line.force_encoding(Encoding::UTF_8))
        @table.add(record, @source && offset) if record # nil: another kind of line
      rescue RunRecord::BadLine, JSON::ParserError, EncodingError => e
        if !line.end_with?("\n") && (offset + line.bytesize >= @file_size || @file.eof?)
          @truncated = true
        else
          @skipped << [@number, e.is_a?(RunRecord::BadLine) ? e.message : "not a JSON object"]
        end
      end
    end
  end
end
