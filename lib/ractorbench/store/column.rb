# frozen_string_literal: true

require_relative "marker"
require_relative "packed_list"

module Ractorbench
  module Store
    class Columns
      # Whether b is a as a line wrote it: eql? and more, since 0.0 is eql?
      # to -0.0 and a Hash to one with its keys in another order, and a run
      # must read back as its line has it, whatever lines came before it.
      # (A zero's sign by Float#arg, 0 or π: 1 / a made an Infinity object
      # for every zero a big file's constant columns were checked against.)
      def self.same?(a, b)
        return false unless a.eql?(b)

        case a
        when Float then !a.zero? || a.arg == b.arg
        when Hash then a.keys.zip(b.keys).all? { |x, y| same?(x, y) } && a.all? { |k, v| same?(v, b[k]) }
        when Array then a.each_index.all? { |i| same?(a[i], b[i]) }
        else true
        end
      end

      # Values eql? does not tell from others that differ (same?).
      # A Hash of one key has no order to differ in.
      def self.delicate?(value)
        case value
        when Float then value.zero?
        when Hash then value.size > 1 || value.each_value.any? { |v| delicate?(v) }
        when Array then value.any? { |v| delicate?(v) }
        else false
        end
      end

      # One field over the runs: a constant until a run differs, then an Array.
      class Column
        def initialize
          @constant = MISSING
          @values = nil
          @length = 0
          # Whether @values holds a MISSING: reading a column then maps them
          # to nil, else it is copied as it is (checking a million Floats
          # against MISSING costs more than the copy).
          @holes = false
        end

        def set(row, value)
          unless @values
            if @length.zero? && row.zero?
              @constant = value
              @length = 1
              return
            end
            if row == @length && Columns.same?(value, @constant)
              @length += 1
              return
            end
            materialize
          end
          pad(row)
          @values << value
          @length = row + 1
        end

        def [](row)
          return MISSING if row >= @length

          @values ? @values[row] : @constant
        end

        # The values of rows (0...size without rows), nil for MISSING.
        def values_at(rows, size)
          unless @values
            constant = MISSING.equal?(@constant) ? nil : @constant
            return Array.new(@length, constant).fill(nil, @length, size - @length) unless rows
            return Array.new(rows.size, constant) if rows.empty? || rows.max < @length

            return rows.map { |row| (row < @length) ? constant : nil }
          end
          # MISSING given as nil where it is kept (aside, in a table), not by a pass over every value.
          list = @values.to_a(@holes ? nil : MISSING)
          rows ? Packing.pick(list, rows) : list.fill(nil, @length, size - @length)
        end

        # The fast path's appends at row: rows come in order, those between
        # (runs of another shape, without this field) padded; a column of
        # one value so far stays so while the values are that one.
        def push(value, row) = set(row, value)

        def concat_values(values, row)
          unless @values
            return @length = row + values.size if row == @length && all_constant?(values)

            materialize
          end
          pad(row)
          @values.concat(values)
          @length = row + values.size
        end

        # A constant column that every row up to length has.
        def extend_to(length)
          @length = length
        end

        def constant? = @values.nil?

        attr_reader :constant, :length

        # Reading is over: what is kept, kept without spare room.
        def trim
          @values&.trim
          self
        end

        # A forked reader hands its columns back through a pipe (SplitRead):
        # the values go packed as they are kept (PackedList#marshal_dump).
        def marshal_dump = [@constant, @length, @holes, @values]

        def marshal_load((constant, length, holes, values))
          @constant = constant
          @length = length
          @holes = holes
          @values = values
        end

        private

        # uniq in C, then same? for what eql? does not tell apart (-0.0).
        def all_constant?(values)
          return false unless values.uniq.size == 1 && Columns.same?(values.first, @constant)

          !Columns.delicate?(@constant) || values.all? { |value| Columns.same?(value, @constant) }
        end

        def materialize
          @values = PackedList.new(Array.new(@length, @constant))
          @holes = MISSING.equal?(@constant) && @length.positive?
        end

        # Rows from @length to before row: runs without this field.
        def pad(row)
          return unless row > @length

          @values.skip(row - @length)
          @holes = true
        end
      end
    end
  end
end
