# frozen_string_literal: true

module Ractorbench
  module Store
    # How long a line of a results file may be read whole: no reader keeps
    # more than this of one line in memory, whatever the file holds (a line
    # of gigabytes, a file of NULs). A run line the collector writes stays
    # under RUN_LINE (Collector fails a record that would not); a
    # header holds a plan, a hundred bytes a run: HEADER takes a plan of over
    # a million. Longer lines are skipped unread, with their line numbers.
    module BoundedLines
      RUN_LINE = 16 * 1024 * 1024
      HEADER = 128 * 1024 * 1024
      PIECE = 1024 * 1024

      module_function

      # Each line of io in pieces of at most PIECE bytes, with whether the
      # piece starts a line (a piece that starts one and ends in a newline
      # is a whole line).
      def each_piece(io)
        at_start = true
        io.each_line("\n", PIECE) do |piece|
          yield piece, at_start
          at_start = piece.end_with?("\n")
        end
      end

      # The first line of io, read to at most HEADER bytes: [line, nil], or
      # [nil, why it cannot be a header] (it does not start as a JSON object
      # does, or it is longer than HEADER). Nothing more is read.
      def first_line(io)
        head = io.read(1)
        return [nil, nil] if head.nil?
        return [nil, "its first line is not a JSON object"] unless head == "{"

        io.ungetbyte(head)
        line = io.gets("\n", HEADER + 1)
        return [line, nil] unless line.bytesize > HEADER

        [nil, "its first line is longer than #{HEADER / 1024 / 1024} MB"]
      end
    end
  end
end
