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
        # Each run, in file order: its configuration's index in @columns and
        # its row there, two packed lists (a few bytes a run, PackedList).
        # A file's table (with a source) has each run's line offset, which
        # says its place: it places its runs only once something walks them
        # (placed). A report reads configurations, not the file's order, and
        # placing runs one by one was two appends a line for a reader and
        # most of a second for the merge of a million runs.
        @indexes = Columns::PackedList.new
        @rows = Columns::PackedList.new
        @placed = source.nil?
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
      # The Columns it went into.
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
        columns = @columns[index]
        place(index, columns.add(record, offset, checked: checked))
        columns
      end

      # The run line at scanner's position, just past its start up to its
      # id's repetition (RUN_START, whose label it names), of a configuration
      # already seen, folded without parsing when its Columns' template takes
      # the rest of it (LineTemplate): true, the scanner past the line; or
      # false with nothing changed but the scanner's position. The label in
      # the id only says which template to try; the template checks every
      # other field.
      def add_scanned(scanner, label, offset)
        index = @index_by_label[label] or return false
        row = @columns[index].add_scanned(scanner, offset) or return false
        place(index, row)
        true
      end

      # The file's table of tables read from it by shares of its
      # configurations (SplitRead), this one empty: each configuration where
      # its first run is, every Columns taken as it is, the runs' order their
      # lines' (placed). One table is taken as the file's own. nil when a
      # configuration is in two of the tables (an id that names another
      # configuration than its fields), or a table's runs have no offsets (a
      # pipe's): their runs cannot be placed one by one.
      def merge(tables)
        return tables.first.read_from(@source) if tables.size == 1

        tables.each { |table| table.read_from(@source) }
        # A reader's lines all have offsets or none (LineRange): its first says.
        firsts = tables.flat_map(&:columns).reject { |columns| columns.size.zero? }.to_h { |columns| [columns, columns.offset(0)] }
        return nil if firsts.value?(nil)

        firsts.keys.sort_by(&firsts).each { |columns| adopt(columns) or return nil }
        self
      end

      # Every Columns complete (see Columns#settled).
      def settled(trim: true)
        @columns.each { |columns| columns.settled(trim: trim) }
        if trim
          @indexes.trim
          @rows.trim
        end
        self
      end

      def size = @placed ? @indexes.size : @columns.sum(&:size)
      alias_method :length, :size

      def empty? = size.zero?

      def each
        return enum_for(:each) { size } unless block_given?

        rows = self.rows.to_a
        indexes.to_a.each_with_index { |index, i| yield @columns[index].view(rows[i]) }
      end

      def [](at)
        index = indexes[at]
        index && @columns[index].view(rows[at])
      end

      def last = self[-1]

      # These runs as read from source: their lines read back from it, and
      # other tables of its file merged into this one as into its own (a
      # forked reader's table comes through Marshal with a copy of its source).
      def read_from(source)
        return self if source.equal?(@source)

        @columns.each { |columns| columns.read_from(source) }
        marshal_load([source, @columns, *order]) # its lookups rebuilt for this source
        self
      end

      # A forked reader hands its table back through a pipe (SplitRead), the
      # runs' order packed as it is kept, if it was placed. The lookups are
      # rebuilt from the columns.
      def marshal_dump = [@source, @columns, *order]

      def marshal_load((source, columns, indexes, rows))
        initialize(source)
        columns.each { |table_columns| register(table_columns) }
        return unless indexes

        @indexes = indexes
        @rows = rows
        @placed = true
      end

      protected

      # Each run's configuration (its index in columns) and row there, in file order.
      def indexes = placed.first
      def rows = placed.last

      # [indexes, rows], placed from the runs' line offsets first if they
      # were not: each configuration's rows are in file order, so the runs
      # sorted by offset say whose is each next run and its row there.
      def placed
        unless @placed
          @placed = true
          span = @columns.size
          keys = []
          @columns.each_with_index { |columns, index| keys.concat(columns.line_offsets.map! { |offset| offset * span + index }) }
          keys.sort! # in C
          cursors = Array.new(span, 0)
          @indexes.concat(keys.map! { |key| key % span })
          @rows.concat(keys.map! { |index| (cursors[index] += 1) - 1 })
        end
        [@indexes, @rows]
      end

      # [indexes, rows] as kept: none when not placed.
      def order = @placed ? [@indexes, @rows] : []

      private

      # The next run in file order: row of the index-th configuration.
      def place(index, row)
        return unless @placed

        @indexes << index
        @rows << row
      end

      # Names that differ only in what Printable makes of them are one configuration.
      def index_for(configuration, source)
        @index_by_configuration[[configuration, source]] || register(Columns.new(configuration, source))
      end

      # columns of another table of this file as one of this one's; nil when
      # this one has its configuration already.
      def adopt(columns)
        return nil if @index_by_configuration.key?([columns.configuration, columns.source])

        register(columns)
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
