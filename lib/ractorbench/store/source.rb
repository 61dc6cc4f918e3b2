# frozen_string_literal: true

module Ractorbench
  module Store
    # The file a table of runs was read from, for the few fields read back
    # from their line only when asked for (Columns::LAZY, RunView#to_h).
    class Source
      attr_reader :path

      def initialize(path)
        @path = path
      end

      # The line that starts at offset, nil when the file no longer has one.
      def line_at(offset)
        return nil if offset.nil?

        line = File.open(@path, "rb") do |f|
          f.seek(offset)
          f.gets
        end
        line&.force_encoding(Encoding::UTF_8)
      rescue SystemCallError, IOError
        nil
      end
    end
  end
end
