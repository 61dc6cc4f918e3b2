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

      attr_reader :columns

      def initialize(source = nil)
        @source = source
        @columns = []
        @by_configuration = {}
        # A line's names as written, to its configuration's index: the
        # Configuration (labels made printable) is built once a configuration.
        @by_names = {}
        @unread = Columns.unread
        # Each run's configuration (its index in @columns), in file order.
        @indexes = []
      end

      # A table of some runs (RunViews of another table, or RunRecords).
      def self.of(runs)
        return runs if runs.is_a?(RunTable)

        table = new
        runs.each do |run|
          if run.is_a?(RunView)
            table.add(run.columns.stored(run.row), run.offset, source: run.columns.source)
          else
            table.add(run.to_h, nil)
          end
        end
        table
      end

      # record: a run Hash as parsed, checked here (a BadLine leaves the
      # table as it was); offset: where its line starts. The first line of
      # each spelling of a configuration's names is checked whole
      # (RunRecord.validate); the lines after it with the same names, by
      # their Columns.
      def add(record, offset, source: @source)
        names = [record["workload"], record["model"], record["workers"], record["messages"], record["params"], record["ruby"], source]
        index = @by_names[names] || (@by_names[names] = index_for(Plan::Configuration.of(RunRecord.validate(record)), source))
        @columns[index].add(record, offset)
        @indexes << index
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
          @columns << Columns.new(configuration, source, unread: @unread)
          @columns.size - 1
        end
      end
    end
  end
end
