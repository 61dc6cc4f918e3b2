# frozen_string_literal: true

require_relative "columns"
require_relative "run_record"
require_relative "../plan/configuration"

module Ractorbench
  module Store
    # The runs of a results file, in file order, kept as one Columns per
    # configuration. Enumerable over RunViews for code that walks runs; the
    # analysis reads the Columns themselves.
    class RunTable
      include Enumerable

      # Rows are numbered within a configuration; a run's place in the file
      # is its configuration's number and its row packed in one Integer.
      ROW_BITS = 32
      # How every run line our writer makes starts, up to the repetition its
      # id ends with: the id before it is its configuration's label.
      RUN_START = %r{\{"type":"run","id":"([^"\\\n]*)#{Regexp.escape(Plan::Configuration::REP_MARK)}}

      attr_reader :columns

      def initialize(source = nil)
        @source = source
        @columns = []
        @index_by_raw = {}
        @index_by_configuration = {}
        @index_by_label = {}
        # Each run's configuration and row as one code, packed (PackedList).
        @order = Columns::PackedList.new
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

      # record: a run Hash as parsed, checked here (RunRecord.validate, or
      # what Columns' fast path checks); a BadLine leaves the table as it was.
      def add(record, offset, source: @source)
        raw = [record["workload"], record["model"], record["workers"], record["messages"], record["params"], record["ruby"], source]
        # Lines of one configuration carry the same names and numbers: its
        # Configuration is built once, not once a line, and names equal to
        # those of a line already checked need no checking.
        index = @index_by_raw[raw]
        unless index
          RunRecord.validate(record)
          index = @index_by_raw[raw] = index_for(Plan::Configuration.of(record), source)
          checked = true
        end
        @order << ((index << ROW_BITS) | @columns[index].add(record, offset, checked: checked))
        self
      end

      # The run line at scanner's position, of a configuration already seen,
      # folded without parsing when its Columns' template takes the rest of it
      # (LineTemplate): true, the scanner past the line; or false with nothing
      # changed but the scanner's position. The label in the id only says
      # which template to try; the template checks every other field.
      def add_scanned(scanner, offset)
        return false unless scanner.skip(RUN_START)

        index = @index_by_label[scanner[1]] or return false
        row = @columns[index].add_scanned(scanner, offset) or return false
        @order << ((index << ROW_BITS) | row)
        true
      end

      # other's runs after these: a later stretch of the same file.
      def concat(other)
        placed = other.columns.map do |columns|
          index = index_for(columns.configuration, @source || columns.source)
          [index, @columns[index].concat(columns)]
        end
        mask = (1 << ROW_BITS) - 1
        other.order.each do |code|
          index, base = placed[code >> ROW_BITS]
          @order << ((index << ROW_BITS) | (base + (code & mask)))
        end
        self
      end

      # Every Columns complete (see Columns#settled).
      def settled
        @columns.each(&:settled)
        @order.trim
        self
      end

      def size = @order.size
      alias_method :length, :size

      def empty? = @order.empty?

      def each
        return enum_for(:each) { size } unless block_given?

        @order.each { |code| yield at(code) }
      end

      def [](index)
        code = @order[index]
        code && at(code)
      end

      def last = self[-1]

      # A forked reader hands its table back through a pipe (SplitRead), the
      # order codes packed as they are kept. The indexes are rebuilt from the columns.
      def marshal_dump = [@source, @columns, @order]

      def marshal_load((source, columns, order))
        initialize(source)
        columns.each { |table_columns| register(table_columns) }
        @order = order
      end

      protected

      attr_reader :order

      private

      def at(code) = @columns[code >> ROW_BITS].view(code & ((1 << ROW_BITS) - 1))

      # Names that differ only in what Printable makes of them are one configuration.
      def index_for(configuration, source)
        @index_by_configuration[[configuration, source]] || register(Columns.new(configuration, source))
      end

      # Appends columns and indexes them: by configuration and file, and by
      # label for lines of this table's own file (add_scanned). Its index.
      def register(columns)
        index = @columns.size
        @columns << columns
        @index_by_configuration[[columns.configuration, columns.source]] = index
        @index_by_label[columns.label] ||= index if columns.source.equal?(@source)
        index
      end
    end
  end
end
