# frozen_string_literal: true

require "json"
require_relative "bounded_lines"
require_relative "../base/printable"

module Ractorbench
  module Store
    # The lines of a results file that are not runs, as --resume needs them:
    # each run's write-ahead "started" marks and "interrupted" marks
    # (Store::Writer), and whether the file has a complete header at all.
    # Readers of results skip these lines (Store.read reads runs only).
    module Marks
      # A run started this often without finishing, and not stopped by the
      # user, killed or crashed the collector each time it ran: the first
      # time may have been anything (a kill -9, the OOM killer, a power cut),
      # so it runs again once; the second time it is recorded as failed.
      DEATHS = 2

      # What --resume must know of a run that has no line of its own:
      # suspected, whether a signal to the collector alone stopped it
      # (Collector).
      Unfinished = Struct.new(:id, :deaths, :started_at, :suspected, keyword_init: true)
      # One mark as Store::Writer wrote it: started (at: when) or
      # interrupted (suspect: the signal came to the collector alone).
      Mark = Struct.new(:type, :id, :at, :suspect, keyword_init: true) do
        # The mark a line holds; nil for a line that is no JSON object.
        def self.read(line)
          mark = Marks.parse(line)
          mark && new(type: mark["type"], id: mark["id"], at: mark["at"], suspect: mark["suspect"])
        end
      end

      module_function

      # {id => Unfinished} for runs started and never recorded, counting the
      # starts that neither finished nor were interrupted.
      def unfinished(path, done)
        started = Hash.new(0)
        stopped = Hash.new(0)
        suspected = {}
        first = {}
        each_mark(path) do |line|
          mark = Mark.read(line) or next
          id = mark.id
          next unless id.is_a?(String) && !done.key?(id)

          if mark.type == "started"
            started[id] += 1
            first[id] ||= mark.at
          elsif mark.type == "interrupted"
            stopped[id] += 1
            suspected[id] = true if mark.suspect == true
          end
        end
        started.to_h do |id, n|
          [id, Unfinished.new(id: id, deaths: n - stopped[id], started_at: first[id], suspected: suspected.key?(id))]
        end
      end

      # Each whole line that may be a mark (a line longer than a piece is none).
      def each_mark(path)
        File.open(path, "rb") do |file|
          BoundedLines.each_piece(file) do |piece, at_start|
            next unless at_start && piece.end_with?("\n")
            next unless piece.start_with?('{"type":"started"', '{"type":"interrupted"')

            yield piece
          end
        end
      end

      def parse(line)
        mark = JSON.parse(line.force_encoding(Encoding::UTF_8))
        mark.is_a?(Hash) ? mark : nil
      rescue JSON::ParserError, EncodingError
        nil
      end

      # nil, or what to say about a file whose header is missing or cut off:
      # a collection stopped while creating it (by an older ractorbench, or a
      # copy cut short), so it holds no runs.
      def incomplete_header(path)
        first, problem = File.open(path, "rb") { |f| BoundedLines.first_line(f) }
        # A file that cannot be a results file at all is left for the reader to name.
        return nil if problem || first&.end_with?("\n")

        what = first.nil? ? "is empty" : "has no complete header (its first line is cut off)"
        "#{path} #{what}: a collection stopped while creating it, so it holds no runs; delete it, or start " \
          "again with #{Printable.command("-o", path, "--force")}"
      rescue SystemCallError
        nil
      end
    end
  end
end
