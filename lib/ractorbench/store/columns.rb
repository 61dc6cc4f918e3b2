# frozen_string_literal: true

require "json"
require_relative "run_record"
require_relative "run_view"
require_relative "column"
require_relative "../plan/configuration"
require_relative "../../../harness/ractorbench/harness/fields"

module Ractorbench
  module Store
    # One configuration's runs as read: each field the analysis reads kept as
    # a list over the runs (one value while every run has the same, as the
    # names and usually the digest do), and where each run's line starts, so
    # that the other fields are read back from its line when a report shows
    # the run whole. From a pipe, whose lines cannot be read again, the line
    # of a run a report shows whole (failed, unsupported, disturbed) is kept
    # (there are few).
    class Columns
      # A field a run's line did not have (unlike a field it had as null).
      MISSING = Object.new.tap { |marker| def marker.inspect = "#<MISSING>" }.freeze

      # Whether b is a as a line wrote it: eql? and more, since 0.0 is eql?
      # to -0.0 and a Hash to one with its keys in another order.
      def self.same?(a, b)
        return false unless a.eql?(b)

        case a
        when Float then !a.zero? || a.arg == b.arg
        when Hash then a.keys.zip(b.keys).all? { |x, y| same?(x, y) } && a.all? { |k, v| same?(v, b[k]) }
        when Array then a.all?(Integer) || a.each_index.all? { |i| same?(a[i], b[i]) } # eql? tells Integers apart
        else true
        end
      end

      # The fields a reader keeps: those the field table says the analysis
      # reads, and those a results header records as read (fields: its
      # "fields", what a --load file declared).
      def self.kept(fields = nil) = Harness::Fields.kept(fields).to_h { |name| [name, true] }.freeze

      # Whether a report shows this run whole (Analysis::Group's failed,
      # unsupported and disturbed runs).
      def self.shown?(record) = record["status"] != "ok" || record["disturbed"] == true

      attr_reader :configuration, :source, :size, :kept

      # source: the Store::Source the lines came from (nil: a pipe's, whose
      # lines cannot be read again); kept: the fields kept (Columns.kept).
      def initialize(configuration, source, kept: Columns.kept)
        @configuration = configuration
        @source = source
        @kept = kept
        # The id is kept only where it is not the planned one (id).
        @fields = (kept.keys - ["id"]).to_h { |name| [name, Column.new(name, RunRecord::KINDS[name])] }
        @offsets = []
        @numbers = []
        @ids = {}
        # The lines of the runs shown whole, by row, when they cannot be read
        # again (or their records, when there is no line).
        @whole = {}
        @size = 0
      end

      # record: a run Hash as parsed, of this configuration (its names
      # checked); offset: where its line starts in the file (nil when it
      # cannot be read again); number: its line's number; line: the line,
      # kept when it cannot be read again and the run is shown whole. Its
      # row. Its values are checked once every run is read (check), but for
      # its id and the fields every run has (a BadLine naming the first missing).
      def add(record, offset, number, line: nil)
        row = @size
        RunRecord.validate(record) if record.values_at(*RunRecord::REQUIRED).include?(nil) # raises, naming the field
        id = record["id"]
        @ids[row] = RunRecord.field("id", id) unless id == planned_id(record["rep"])
        record.each { |key, value| @fields[key]&.set(row, value) }
        @whole[row] = line || record if @source.nil? && Columns.shown?(record)
        @offsets << offset
        @numbers << number
        @size += 1
        row
      end

      # Checks the values kept as the field table says, once every line is read:
      # the runs with a value of the wrong shape are taken out, as
      # {row => [line number, what is wrong]} (rows as they were).
      def check
        bad = {}
        @fields.each_value { |column| column.check.each { |row, why| bad[row] ||= [@numbers[row], why] } }
        drop(bad) unless bad.empty?
        bad
      end

      # A field of one run: nil when the run had no such field.
      def value(key, row)
        v = raw(key, row)
        MISSING.equal?(v) ? nil : v
      end

      def key?(key, row) = !MISSING.equal?(raw(key, row))

      # One field over the given rows (every run without rows), nil where a
      # run did not have it.
      def values(key, rows = nil)
        rows ||= 0...@size
        return rows.map { |row| value(key, row) } if key == "id" || !@kept.key?(key)

        column = @fields[key] or return Array.new(rows.size)
        column.values_at(rows)
      end

      # The value every run has for key when they all have the same one
      # (nil included), else MISSING.
      def uniform(key)
        return MISSING if key == "id" || !@kept.key?(key)

        column = @fields[key]
        (column&.constant? && column.length == @size) ? column.constant : MISSING
      end

      def view(row) = RunView.new(self, row)

      def views(rows = nil) = (rows || (0...@size)).map { |row| view(row) }

      def offset(row) = @offsets[row]

      # Its line's number (RunTable#add).
      def number(row) = @numbers[row]

      # A run as it was written: its line read back from the file when that
      # line is still there, else what was kept.
      def record(row) = whole_record(row) || stored(row)

      # A run's fields as kept here (a run kept whole, whole).
      def stored(row)
        whole = @whole.key?(row) && whole_record(row)
        return whole if whole

        ["id", *@fields.keys].each_with_object({}) do |key, h|
          v = raw(key, row)
          h[key] = v unless MISSING.equal?(v)
        end
      end

      def label = @label ||= configuration.label

      private

      def planned_id(rep) = Plan::Configuration.run_id(label, rep)

      def raw(key, row)
        return (row < @size) ? @ids.fetch(row) { planned_id(raw("rep", row)) } : MISSING if key == "id"

        unless @kept.key?(key)
          record = whole_record(row)
          return record ? record.fetch(key, MISSING) : MISSING
        end

        column = @fields[key] or return MISSING
        column[row]
      end

      # Without the given rows ({row => anything}).
      def drop(rows)
        left = (0...@size).reject { |row| rows.key?(row) }
        renumbered = left.each_with_index.to_h
        @fields.each_value { |column| column.drop(rows) }
        @offsets = @offsets.values_at(*left)
        @numbers = @numbers.values_at(*left)
        @ids = @ids.filter_map { |row, id| [renumbered[row], id] if renumbered.key?(row) }.to_h
        @whole = @whole.filter_map { |row, record| [renumbered[row], record] if renumbered.key?(row) }.to_h
        @size = left.size
      end

      # The run's own line, if the file still holds it where it was read (a
      # pipe's, as it was kept), checked whole.
      def whole_record(row)
        line = @whole.fetch(row) { @source&.line_at(@offsets[row]) }
        record = line.is_a?(String) ? JSON.parse(line) : line&.dup
        record &&= RunRecord.validate(record)
        (record && record["id"] == value("id", row)) ? record : nil
      rescue JSON::ParserError, EncodingError, RunRecord::BadLine, SystemCallError
        nil
      end
    end
  end
end
