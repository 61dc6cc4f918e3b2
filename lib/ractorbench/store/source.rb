# frozen_string_literal: true

require_relative "bounded_lines"

module Ractorbench
  module Store
    # The file a table of runs was read from, for the fields read back from
    # a run's line when a report shows the run whole (those the analysis
    # does not read, RunView#to_h). One handle a process, opened when first
    # needed (`merge` reads back every line): a handle a forked process
    # shared with its parent would share its position too, and a row made
    # in a forked part (Analysis::Rows) read another run's line.
    class Source
      attr_reader :path

      def initialize(path)
        @path = path
        @file = nil
        @pid = nil
      end

      # The line that starts at offset, nil when the file no longer has one.
      def line_at(offset)
        return nil if offset.nil?

        if @pid != Process.pid
          @file = File.open(@path, "rb")
          @pid = Process.pid
        end
        @file.seek(offset)
        @file.gets("\n", BoundedLines::RUN_LINE + 1)&.force_encoding(Encoding::UTF_8)
      rescue SystemCallError, IOError
        @file = nil
      end
    end
  end
end
