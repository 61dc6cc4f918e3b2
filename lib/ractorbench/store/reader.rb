# frozen_string_literal: true

require "json"
require_relative "run_table"
require_relative "run_record"
require_relative "bounded_lines"

module Ractorbench
  module Store
    # A results file's run lines, read one after another into a RunTable:
    # each line parsed and folded into its configuration's Columns, whose
    # values are checked once every line is read. A line of the wrong shape
    # (not JSON, not UTF-8, wrong types) is skipped and listed with its line
    # number; a line longer than BoundedLines::RUN_LINE is skipped unread; a
    # last line cut short is the run a collector was writing when it
    # stopped, not damage. Lines of other types (a writer's marks) are
    # passed over.
    class Reader
      attr_reader :runs, :skipped

      # The record of a run line, nil for other kinds of line.
      def self.parse_line(line)
        raise EncodingError, "not UTF-8" unless line.valid_encoding?

        record = JSON.parse(line)
        raise JSON::ParserError unless record.is_a?(Hash)

        (record["type"] == "run") ? record : nil
      end

      # source: where lines are read back from (nil for a pipe); offset:
      # where the run lines start, after the header; kept: the fields kept
      # (Columns.kept).
      def initialize(source, offset:, kept: Columns.kept)
        @runs = RunTable.new(source, kept: kept)
        @source = source
        @skipped = []
        @truncated = false
        @number = 1 # the header's line
        @offset = offset
      end

      def truncated? = @truncated

      # Every line of io from where it is, read a line at a time (a line
      # longer than BoundedLines::RUN_LINE in pieces, each dropped).
      def read(io)
        at_start = true
        io.each_line("\n", BoundedLines::RUN_LINE + 1) do |piece|
          @number += 1 if at_start
          whole = piece.end_with?("\n")
          if !at_start # the rest of a line skipped unread
          elsif whole || piece.bytesize <= BoundedLines::RUN_LINE
            fold(piece, whole)
          else
            @skipped << [@number, "longer than #{BoundedLines::RUN_LINE / 1024 / 1024} MB, skipped unread"]
          end
          at_start = whole
          @offset += piece.bytesize
        end
        @skipped = (@skipped + @runs.check).sort_by(&:first)
        self
      end

      private

      def fold(line, whole)
        record = Reader.parse_line(line.force_encoding(Encoding::UTF_8))
        @runs.add(record, @source && @offset, @number, line: @source ? nil : line) if record
      rescue RunRecord::BadLine, JSON::ParserError, EncodingError => e
        # A last line with no newline that does not parse: cut mid-write.
        return @truncated = true unless whole

        @skipped << [@number, e.is_a?(RunRecord::BadLine) ? e.message : "not a JSON object"]
      end
    end
  end
end
