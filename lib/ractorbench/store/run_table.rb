# frozen_string_literal: true

require_relative "columns"
require_relative "run_record"
require_relative "../plan/configuration"

module Ractorbench
  module Store
    # The runs of a results file, kept as one Columns per configuration (in
    # the order their first runs came). Enumerable over RunViews in file
    # order (by line number, put in order when walked: a report of a big file
    # walks its configurations, not its runs); the analysis reads the Columns.
    class RunTable
      include Enumerable

      attr_reader :columns

      # kept: the fields kept (Columns.kept).
      def initialize(source = nil, kept: Columns.kept)
        @source = source
        @kept = kept
        @columns = []
        @by_configuration = {}
        # A line's names as written, to its configuration's index, by source:
        # the Configuration (labels made printable) is built once a configuration.
        @by_names = {}
      end

      # A table of some runs (RunViews of another table, or RunRecords).
      def self.of(runs)
        return runs if runs.is_a?(RunTable)

        first = runs.first
        table = first.is_a?(RunView) ? new(kept: first.columns.kept) : new
        runs.each.with_index(1) do |run, number|
          if run.is_a?(RunView)
            table.add(run.columns.stored(run.row), run.offset, number, source: run.columns.source)
          else
            table.add(run.to_h, nil, number)
          end
        end
        table
      end

      # record: a run Hash as parsed (a BadLine leaves the table as it
      # was); offset: where its line starts; number: its line's number (or
      # its place among the runs given, for a table of some runs); line:
      # the line, when it cannot be read again (Columns#add). The first line
      # of each spelling of a configuration's names is checked whole
      # (RunRecord.validate); the lines after it with the same names, by
      # their Columns once every line is read (check).
      def add(record, offset, number, line: nil, source: @source)
        names = record.values_at(*Plan::Configuration::KEYS)
        by_names = @by_names[source] ||= {}
        index = by_names[names] ||= index_for(Plan::Configuration.of(RunRecord.validate(record)), source)
        @columns[index].add(record, offset, number, line: line)
      end

      # Checks every configuration's values (Columns#check): the runs with
      # one of the wrong shape are taken out, as [line number, what is wrong].
      def check = @columns.flat_map { |columns| columns.check.values }

      def size = @columns.sum(&:size)
      alias_method :length, :size

      def empty? = size.zero?

      def each(&block)
        return enum_for(:each) { size } unless block

        @columns.flat_map(&:views).sort_by!(&:number).each(&block)
      end

      # The run at this place in the file (walks them all: for a few).
      def [](at) = to_a[at]

      private

      # Names that differ only in what Printable makes of them are one configuration.
      def index_for(configuration, source)
        @by_configuration[[configuration, source]] ||= begin
          @columns << Columns.new(configuration, source, kept: @kept)
          @columns.size - 1
        end
      end
    end
  end
end
