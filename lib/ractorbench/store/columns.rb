# frozen_string_literal: true

require "json"
require_relative "run_record"
require_relative "run_view"
require_relative "column"
require_relative "packed_list"
require_relative "fast_path"
require_relative "line_template"

module Ractorbench
  module Store
    # One configuration's runs, kept field by field instead of a Hash per run,
    # so a file of a million runs costs its varying numbers, not its lines
    # (issue 11). A field with the same value in every run (the workload, the
    # status, usually the digest) is kept once; a run's id is kept only when
    # it is not the configuration's label and its repetition, as the planner
    # makes it; LAZY fields (a timestamp no figure reads) stay in the file and
    # are read back from their line when asked for.
    class Columns
      DERIVED_ID = Marker.new("DERIVED_ID")
      # Fields the field table says no figure or report reads (a timestamp,
      # the child's set-up and finish times, each worker's batches).
      LAZY = Harness::Fields.unread.to_h { |field| [field.name, true] }.freeze
      # Lines of one configuration come in a few shapes (an ok run's fields,
      # a failed run's): a fast path is kept for each of the last few, so a
      # failed run among ok ones does not cost the ok ones theirs.
      SHAPES = 4

      attr_reader :configuration, :source, :size

      # source: the Store::Source the lines came from (for LAZY fields and to_h).
      def initialize(configuration, source)
        @configuration = configuration
        @source = source
        @fields = {}
        # Where each run's line starts: packed, a few bytes a run (PackedList).
        @offsets = PackedList.new
        @size = 0
        @paths = {}
      end

      # record: a run Hash as parsed (checked: already through
      # RunRecord.validate); offset: where its line starts in the file. A
      # BadLine leaves the columns as they were.
      def add(record, offset, checked: false)
        row = @size
        unless fast_path(record.keys)&.add(record, row)
          RunRecord.validate(record) unless checked
          settle
          add_field_by_field(record, row)
          keep(FastPath.for(self, record, @fields))
        end
        @offsets << offset
        @size += 1
        row
      end

      # The rest of a run line at scanner's position (RunTable#add_scanned),
      # folded without being parsed when its fast path's template takes it:
      # its row, or nil (then the line is to be parsed and added).
      def add_scanned(scanner, offset)
        start = scanner.pos
        path = @fast if (captures = @fast&.match(scanner))
        # A line of another shape: the path that knows it, if still usable.
        path ||= @paths.each_value.find do |other|
          scanner.pos = start
          !other.equal?(@fast) && (captures = other.match(scanner))
        end
        return nil unless path && switch_to(path)

        path.take(captures, @size)
        @offsets << offset
        (@size += 1) - 1
      end

      # Every column complete and trimmed, the fast path dropped: ready to
      # be kept or handed over (Marshal).
      # trim: false leaves the spare room of what is about to be handed
      # over (Marshal writes what is there, not the room).
      def settled(trim: true)
        settle
        @fast = nil
        @paths = {}
        @settled = nil
        if trim
          @fields.each_value(&:trim)
          @offsets.trim
        end
        self
      end

      # A field of one run: nil when the run had no such field.
      def value(key, row)
        v = raw(key, row)
        MISSING.equal?(v) ? nil : v
      end

      def key?(key, row)
        return lazy_record(row)&.key?(key) || false if LAZY.key?(key)

        !MISSING.equal?(raw(key, row))
      end

      # One field over the given rows (every run without rows), nil where a
      # run did not have it.
      def values(key, rows = nil)
        return (rows || (0...@size)).map { |row| value(key, row) } if key == "id" || LAZY.key?(key)

        settle
        column = @fields[key]
        return Array.new(rows ? rows.size : @size) if column.nil?

        column.values_at(rows, @size)
      end

      # The value every run has for key when they all have the same one
      # (nil included), else MISSING: read without a value per run.
      def uniform(key)
        return MISSING if key == "id" || LAZY.key?(key)

        settle
        column = @fields[key]
        (column&.constant? && column.length == @size) ? column.constant : MISSING
      end

      def view(row) = RunView.new(self, row)

      # The runs' lines read back from source (the same file's, RunTable#read_from).
      def read_from(source)
        @source = source
        self
      end

      def views(rows = nil) = (rows || (0...@size)).map { |row| view(row) }

      def offset(row) = @offsets[row]

      # Where each run's line starts, row by row.
      def line_offsets = @offsets.to_a

      # A run as it was written: its line read back from the file when that
      # line is still there, else what the columns kept (LAZY fields left out).
      def record(row)
        lazy_record(row) || stored(row)
      end

      # A run's fields as kept here, LAZY ones left out: enough to fold it
      # into another table (report --by machine splits a file's runs).
      def stored(row)
        settle
        @fields.each_key.with_object({}) do |key, h|
          v = raw(key, row)
          h[key] = v unless MISSING.equal?(v)
        end
      end

      # The id a run has when the planner named it (its id column then keeps
      # nothing but DERIVED_ID).
      def planned_id(rep) = Plan::Configuration.run_id(label, rep)

      def label = @label ||= configuration.label

      private

      # Brings the constant columns the fast path left alone up to every row.
      def settle
        return if @fast.nil? || @settled == @size

        @fast.settle(@size)
        @settled = @size
      end

      # The fast path for lines with these keys, made the current one: nil
      # when there is none or it no longer fits the runs so far.
      def fast_path(keys)
        return @fast if @fast&.keys == keys

        path = @paths[keys]
        path if path && switch_to(path)
      end

      # Makes path the current fast path when it fits the runs so far: the
      # current one's constants first brought up to every row.
      def switch_to(path)
        return true if path.equal?(@fast)

        settle
        return false unless path.usable?(@size)

        @fast = path
        @settled = @size
        true
      end

      def keep(path)
        @fast = path
        return unless path

        @paths.delete(path.keys)
        @paths[path.keys] = path
        @paths.shift while @paths.size > SHAPES
      end

      def add_field_by_field(record, row)
        shape = columns_for(record)
        id = @fields["id"]
        i = -1
        record.each_value do |value|
          column = shape[i += 1]
          next unless column

          value = DERIVED_ID if column.equal?(id) && value == planned_id(record["rep"])
          column.set(row, value)
        end
      end

      # The Column of each field of record, in its order (nil for LAZY ones):
      # lines of one configuration have the same fields, so this is worked
      # out once, not once a line.
      def columns_for(record)
        return @shape if @shape_size == record.size && @shape_keys == record.keys

        @shape_keys = record.keys
        @shape_size = record.size
        @shape = @shape_keys.map { |key| LAZY.key?(key) ? nil : (@fields[key] ||= Column.new) }
      end

      def raw(key, row)
        settle
        return value_of_lazy(key, row) if LAZY.key?(key)

        column = @fields[key]
        return MISSING if column.nil?

        v = column[row]
        DERIVED_ID.equal?(v) ? planned_id(raw("rep", row)) : v
      end

      def value_of_lazy(key, row)
        record = lazy_record(row)
        record&.key?(key) ? record[key] : MISSING
      end

      # The run's own line, if the file still holds it where it was read.
      def lazy_record(row)
        line = source&.line_at(@offsets[row])
        record = line && RunRecord.validate(JSON.parse(line))
        (record && record["id"] == value("id", row)) ? record : nil
      rescue JSON::ParserError, EncodingError, RunRecord::BadLine, SystemCallError
        nil
      end
    end
  end
end
