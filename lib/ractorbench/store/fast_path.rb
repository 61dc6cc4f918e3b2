# frozen_string_literal: true

module Ractorbench
  module Store
    class Columns
      # Folding a line field by field costs a method call per field, and a
      # million lines of thirty fields is most of `report`'s time. Lines of one
      # configuration mostly have the same fields in the same order, the same
      # values in most of them (names, status, digest) and a planned id; for
      # such a line, one comparison in C checks every constant at once and
      # only the fields that vary are checked (RunRecord.field) and appended:
      # a constant was checked with the line it came from. Any other line goes
      # field by field, after which the fast path is worked out again.
      class FastPath
        # nil when a line cannot be taken this way (an id not the planned one).
        def self.for(columns, record, fields)
          keys = record.keys
          constant_at = []
          constants = []
          constant_columns = []
          varying = []
          id_at = nil
          keys.each_with_index do |key, i|
            next if LAZY.key?(key)

            column = fields.fetch(key)
            if key == "id"
              return nil unless column.constant? && DERIVED_ID.equal?(column.constant)

              id_at = i
              constant_columns << column
            elsif column.constant?
              constant_at << i
              constants << column.constant
              constant_columns << column
            else
              varying << [i, column, key, RunRecord::KINDS[key]]
            end
          end
          new(columns, keys, constant_at, constants, constant_columns, varying, id_at, keys.index("rep"))
        end

        def initialize(columns, keys, constant_at, constants, constant_columns, varying, id_at, rep_at)
          @columns = columns
          @keys = keys
          @constant_at = constant_at
          @constants = constants
          @constant_columns = constant_columns
          @varying = varying
          @id_at = id_at
          @rep_at = rep_at
        end

        # Appends record's varying fields and says true, or says false and
        # leaves everything as it was.
        def add(record)
          return false unless record.size == @keys.size && record.keys == @keys

          values = record.values
          return false unless values.values_at(*@constant_at).eql?(@constants)

          # Every check before the first append: a bad line changes nothing.
          @varying.each { |i, _, key, kind| values[i] = RunRecord.field(key, values[i], kind) if kind }
          return false if @id_at && values[@id_at] != @columns.planned_id(@rep_at && values[@rep_at])

          @varying.each { |i, column| column.push(values[i]) }
          true
        end

        # The constant columns cover every row added so far.
        def settle(size)
          @constant_columns.each { |column| column.extend_to(size) }
        end
      end
    end
  end
end
