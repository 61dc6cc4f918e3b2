# frozen_string_literal: true

require "json"
require_relative "run_record"
require_relative "run_table"

module Ractorbench
  module Store
    # One stretch of a results file's run lines, from a line start to before
    # another, read into its own RunTable. A line of the wrong shape (not JSON,
    # not UTF-8, wrong types) is skipped and listed with its number within
    # the stretch; a cut last line of the file is the run a collector was
    # writing when it stopped, not damage.
    module LineRange
      # reader: the process that read it; templated: how many of its lines
      # were folded without being parsed (Columns::LineTemplate).
      Result = Struct.new(:table, :skipped, :truncated, :lines, :reader, :templated)

      module_function

      # file_size: where the file ended when reading began.
      def read(path, from, to, source, file_size)
        File.open(path, "rb") do |file|
          file.seek(from)
          read_lines(file, from, to, source, file_size)
        end
      end

      # The rest of a pipe (report /dev/stdin): no offsets to read back from.
      def read_stream(io) = read_lines(io, 0, Float::INFINITY, nil, Float::INFINITY)

      def read_lines(file, from, to, source, file_size)
        table = RunTable.new(source)
        skipped = []
        truncated = false
        number = 0
        templated = 0
        offset = from
        while offset < to && (line = file.gets)
          number += 1
          line.force_encoding(Encoding::UTF_8)
          if line.valid_encoding? && table.add_line(line, source && offset)
            templated += 1
            offset += line.bytesize
            next
          end
          begin
            record = Store.parse_line(line)
            table.add(record, source && offset) if record # nil: another kind of line
          rescue RunRecord::BadLine, JSON::ParserError, EncodingError => e
            if !line.end_with?("\n") && (offset + line.bytesize >= file_size || file.eof?)
              truncated = true
            else
              skipped << [number, e.is_a?(RunRecord::BadLine) ? e.message : "not a JSON object"]
            end
          end
          offset += line.bytesize
        end
        Result.new(table.settled, skipped, truncated, number, Process.pid, templated)
      end
    end
  end
end
