# frozen_string_literal: true

require_relative "run_record"

module Ractorbench
  module Store
    class Columns
      # One field over a configuration's runs: a value while every run has
      # the same, then a list. Values are kept as they come and checked once
      # the file is read (check); a value like one kept already (a digest, a
      # status, a worker spread) is kept as that one, not as an object a run.
      class Column
        attr_reader :constant, :length

        # kind: what RunRecord.field checks values as (nil: not checked).
        def initialize(name, kind)
          @name = name
          @kind = kind
          @constant = MISSING
          @values = nil
          @length = 0
          @kept = nil # made when the first object value comes
          # Whether @values holds a MISSING (a run without the field).
          @holes = false
        end

        def constant? = @values.nil?

        # Rows come in order; rows skipped are runs without this field. A
        # number for the next row of a list goes straight in: most values are.
        def set(row, value)
          values = @values
          if values && row == values.size && (value.is_a?(Float) || value.is_a?(Integer))
            values << value
            return @length = row + 1
          end
          return @length += 1 if values.nil? && row == @length && same_as_constant?(value)

          value = kept(value)
          if @values.nil?
            if row.zero?
              @constant = value
              return @length = 1
            end
            @values = Array.new(@length, @constant)
          end
          if row > @values.size
            @values.fill(MISSING, @values.size, row - @values.size)
            @holes = true
          end
          @values << value
          @length = row + 1
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

        # {row => what is wrong} for the runs whose value is not what the
        # field table says; the values kept as RunRecord.field makes them
        # (printable where printed).
        def check
          return {} unless @kind
          return constant_check if @values.nil?

          @values.each_with_index.with_object({}) do |(value, row), bad|
            next if MISSING.equal?(value)

            @values[row] = RunRecord.field(@name, value, @kind)
          rescue RunRecord::BadLine => e
            bad[row] = e.message
          end
        end

        # Without the given rows ({row => anything}).
        def drop(rows)
          @values ||= Array.new(@length, @constant)
          @values = @values.each_with_index.reject { |_, row| rows.key?(row) }.map(&:first)
          @length = @values.size
          @holes = @values.include?(MISSING)
        end

        private

        def constant_check
          @constant = RunRecord.field(@name, @constant, @kind) unless MISSING.equal?(@constant)
          {}
        rescue RunRecord::BadLine => e
          (0...@length).to_h { |row| [row, e.message] }
        end

        # Identity first (equal numbers, true, false and nil are one object),
        # then eql? in C, where most other values differ.
        def same_as_constant?(value) = value.equal?(@constant) || (value.eql?(@constant) && Columns.same?(value, @constant))

        # An object value as the same value kept before, when there is one.
        def kept(value)
          return value if value.is_a?(Numeric) || value.nil? || value == true || value == false

          before = (@kept ||= {})[value]
          return before if before && Columns.same?(before, value)

          @kept[value] = value
        end
      end
    end
  end
end
