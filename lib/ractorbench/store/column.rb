# frozen_string_literal: true

require_relative "run_record"

module Ractorbench
  module Store
    class Columns
      # One field over a configuration's runs: a value while every run has
      # the same, then a list. A value is checked as the field table says
      # (RunRecord.field) unless it is the one every run before had, and a
      # value like one kept already (a digest, a status, a worker spread) is
      # kept as that one, not as an object a run.
      class Column
        attr_reader :constant, :length

        # kind: what RunRecord.field checks values as (nil: not checked here).
        def initialize(name, kind)
          @name = name
          @kind = kind
          @constant = MISSING
          @values = nil
          @length = 0
          # Whether @values holds a MISSING (a run without the field).
          @holes = false
          @kept = {}
        end

        def constant? = @values.nil?

        # Rows come in order; rows skipped are runs without this field. A
        # BadLine leaves the column as it was.
        def set(row, value)
          return @length += 1 if @values.nil? && row == @length && same_as_constant?(value)

          value = kept(@kind ? RunRecord.field(@name, value, @kind) : value)
          if @values.nil?
            if row.zero?
              @constant = value
              return @length = 1
            end
            return @length += 1 if row == @length && Columns.same?(value, @constant)

            @values = Array.new(@length, @constant)
            @holes = MISSING.equal?(@constant) && @length.positive?
          end
          if row > @values.size
            @values.fill(MISSING, @values.size, row - @values.size)
            @holes = true
          end
          @values << value
          @length = row + 1
        end

        # Back to its first rows (the rest of a line that turned out bad).
        def truncate(rows)
          return if @length <= rows

          @length = rows
          @values&.slice!(rows..)
          @constant = MISSING if rows.zero? && @values.nil?
        end

        def [](row)
          return MISSING if row >= @length

          @values ? @values[row] : @constant
        end

        # The values of rows, nil for MISSING (and past the last run that had it).
        def values_at(rows)
          unless @values
            constant = MISSING.equal?(@constant) ? nil : @constant
            return rows.map { |row| (row < @length) ? constant : nil }
          end
          list = rows.is_a?(Range) ? @values.values_at(rows) : @values.values_at(*rows)
          list.map! { |v| MISSING.equal?(v) ? nil : v } if @holes
          list
        end

        private

        # Identity first (equal numbers, true, false and nil are one object),
        # then eql? in C, where most other values differ.
        def same_as_constant?(value) = value.equal?(@constant) || (value.eql?(@constant) && Columns.same?(value, @constant))

        # An object value as the same value kept before, when there is one.
        def kept(value)
          return value if value.is_a?(Numeric) || value.nil? || value == true || value == false

          before = @kept[value]
          return before if before && Columns.same?(before, value)

          @kept[value] = value
        end
      end
    end
  end
end
