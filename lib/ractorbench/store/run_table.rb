# frozen_string_literal: true

require_relative "columns"
require_relative "run_record"
require_relative "../plan/configuration"

module Ractorbench
  module Store
    # The runs of a results file, in file order, kept as one Columns per
    # configuration (in the order their first runs came). Enumerable over
    # RunViews for code that walks runs; the analysis reads the Columns.
    class RunTable
      include Enumerable

      # A run line's fields that name its configuration.
      NAMES = Plan::Configuration.members.map(&:to_s).freeze

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
        # Each run's configuration (its index in @columns), in file order.
        @indexes = []
      end

      # A table of some runs (RunViews of another table, or RunRecords).
      def self.of(runs)
        return runs if runs.is_a?(RunTable)

        first = runs.first
        table = first.is_a?(RunView) ? new(kept: first.columns.kept) : new
        runs.each do |run|
          if run.is_a?(RunView)
            table.add(run.columns.stored(run.row), run.offset, source: run.columns.source)
          else
            table.add(run.to_h, nil)
          end
        end
        table
      end

      # record: a run Hash as parsed (a BadLine leaves the table as it
      # was); offset: where its line starts; number: its line's number;
      # line: the line, when it cannot be read again (Columns#add). The
      # first line of each spelling of a configuration's names is checked
      # whole (RunRecord.validate); the lines after it with the same names,
      # by their Columns once every line is read (check).
      def add(record, offset, number = nil, line: nil, source: @source)
        names = record.values_at(*NAMES)
        by_names = @by_names[source] ||= {}
        index = by_names[names] ||= index_for(Plan::Configuration.of(RunRecord.validate(record)), source)
        @columns[index].add(record, offset, number, line: line)
        @indexes << index
      end

      # Checks every configuration's values (Columns#check): the runs with
      # one of the wrong shape are taken out, as [line number, what is wrong].
      def check
        @columns.each_with_index.flat_map do |columns, index|
          bad = columns.check
          next [] if bad.empty?

          row = -1
          @indexes.reject! { |i| i == index && bad.key?(row += 1) }
          bad.values
        end
      end

      def size = @indexes.size
      alias_method :length, :size

      def empty? = @indexes.empty?

      def each
        return enum_for(:each) { size } unless block_given?

        rows = Array.new(@columns.size, 0)
        @indexes.each do |index|
          yield @columns[index].view(rows[index])
          rows[index] += 1
        end
      end

      def [](at)
        index = @indexes[at] or return nil
        at += size if at.negative?
        @columns[index].view(@indexes.first(at).count(index))
      end

      def last = self[-1]

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
