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
    # that what was not kept (the fields the field table marks unread) is
    # read back from its line when a report shows the run whole.
    class Columns
      # A field a run's line did not have (unlike a field it had as null).
      MISSING = Object.new.tap { |marker| def marker.inspect = "#<MISSING>" }.freeze
      # A run whose id is its configuration's label and repetition, as the
      # planner names it: kept as this, not as a String a run.
      DERIVED_ID = Object.new.tap { |marker| def marker.inspect = "#<DERIVED_ID>" }.freeze

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

      # The fields a reader leaves in the file: those the field table says
      # no figure or report reads (a --load file's too, as declared).
      def self.unread = Harness::Fields.unread.to_h { |field| [field.name, true] }

      attr_reader :configuration, :source, :size

      # source: the Store::Source the lines came from (nil: a pipe's, whose
      # lines cannot be read again); unread: the fields left in the file.
      def initialize(configuration, source, unread: Columns.unread)
        @configuration = configuration
        @source = source
        @unread = unread
        @fields = {}
        @offsets = []
        @size = 0
      end

      # record: a run Hash as parsed, of this configuration (its names
      # checked); offset: where its line starts in the file (nil when it
      # cannot be read again). Its row; a BadLine naming its first field of
      # the wrong shape leaves the columns as they were.
      def add(record, offset)
        row = @size
        RunRecord.validate(record) if record.values_at(*RunRecord::REQUIRED).include?(nil) # raises, naming the field
        record.each do |key, value|
          column = @fields.fetch(key) { @fields[key] = column_for(key) } or next

          column.set(row, column.equal?(@id) ? id(value, record["rep"]) : value)
        end
        @offsets << offset
        @size += 1
        row
      rescue RunRecord::BadLine
        @fields.each_value { |column| column&.truncate(row) }
        raise
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
        return rows.map { |row| value(key, row) } if key == "id" || @unread.key?(key)

        column = @fields[key] or return Array.new(rows.size)
        column.values_at(rows)
      end

      # The value every run has for key when they all have the same one
      # (nil included), else MISSING.
      def uniform(key)
        return MISSING if key == "id" || @unread.key?(key)

        column = @fields[key]
        (column&.constant? && column.length == @size) ? column.constant : MISSING
      end

      def view(row) = RunView.new(self, row)

      def views(rows = nil) = (rows || (0...@size)).map { |row| view(row) }

      def offset(row) = @offsets[row]

      # Where each run's line starts, row by row.
      def line_offsets = @offsets.dup

      # A run as it was written: its line read back from the file when that
      # line is still there, else what was kept (unread fields left out).
      def record(row) = whole_record(row) || stored(row)

      # A run's fields as kept here, unread ones left out.
      def stored(row)
        @fields.each_key.with_object({}) do |key, h|
          next if @unread.key?(key)

          v = raw(key, row)
          h[key] = v unless MISSING.equal?(v)
        end
      end

      def label = @label ||= configuration.label

      private

      def planned_id(rep) = Plan::Configuration.run_id(label, rep)

      # A field's Column, nil for one left in the file; the id's is checked
      # here (id), not by its Column.
      def column_for(key)
        return nil if @unread.key?(key)
        return @id = Column.new(key, nil) if key == "id"

        Column.new(key, RunRecord::KINDS[key])
      end

      # A run's id as kept: DERIVED_ID when it is the planned one (made of
      # the printable label), else checked.
      def id(value, rep) = (value == planned_id(rep)) ? DERIVED_ID : RunRecord.field("id", value)

      def raw(key, row)
        if @unread.key?(key)
          record = whole_record(row)
          return record ? record.fetch(key, MISSING) : MISSING
        end

        column = @fields[key] or return MISSING
        v = column[row]
        DERIVED_ID.equal?(v) ? planned_id(raw("rep", row)) : v
      end

      # The run's own line, if the file still holds it where it was read.
      def whole_record(row)
        line = @source&.line_at(@offsets[row])
        record = line && RunRecord.validate(JSON.parse(line))
        (record && record["id"] == value("id", row)) ? record : nil
      rescue JSON::ParserError, EncodingError, RunRecord::BadLine, SystemCallError
        nil
      end
    end
  end
end
