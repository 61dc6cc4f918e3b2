# frozen_string_literal: true

require_relative "bounded_lines"

module Ractorbench
  module Store
    # The file a table of runs was read from, for the fields read back from
    # a run's line when a report shows the run whole (those the analysis
    # does not read, RunView#to_h). One handle, opened when first needed:
    # `merge` reads back every line.
    class Source
      attr_reader :path

      def initialize(path)
        @path = path
        @file = nil
      end

      # The line that starts at offset, nil when the file no longer has one.
      def line_at(offset)
        return nil if offset.nil?

        @file ||= File.open(@path, "rb")
        @file.seek(offset)
        @file.gets("\n", BoundedLines::RUN_LINE + 1)&.force_encoding(Encoding::UTF_8)
      rescue SystemCallError, IOError
        @file = nil
      end
    end
  end
end
