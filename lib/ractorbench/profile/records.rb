# frozen_string_literal: true

require_relative "record"
require_relative "../store/marks"
require_relative "../store/bounded_lines"

module Ractorbench
  module Profile
    # The "profile" lines of a results file: one profiled run of a
    # configuration each. Store.read reads "run" lines only, so no figure
    # of any report comes from them; this reads them (in a file whose
    # header says it was collected with --profile: Choice.of).
    module Records
      TYPE = "profile"
      # How every profile line the collector writes starts.
      START = '{"type":"profile"'

      module_function

      def id(configuration) = "#{configuration.label}/profile"

      # The folder beside a results file that holds its profiles.
      def folder(results_path)
        File.join(File.dirname(results_path), "#{File.basename(results_path, ".*")}.profiles")
      end

      # {configuration label => Record}, the last line of each (nil-safe:
      # a line that is not a JSON object is skipped, as a damaged run line is).
      def read(path)
        found = {}
        File.open(path, "rb") do |file|
          # A piece at a time: a line longer than a piece is no profile line.
          Store::BoundedLines.each_piece(file) do |line, at_start|
            next unless at_start && line.end_with?("\n") && line.start_with?(START)

            record = Record.from(Store::Marks.parse(line))
            next unless record&.type == TYPE && record.workload.is_a?(String)

            found[record.configuration.label] = record
          end
        end
        found
      rescue SystemCallError
        {}
      end
    end
  end
end
