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
        # Lines a template took are kept as text until this many, then read
        # a column at a time (LineTemplate#values); few, so that the texts die
        # young (a thousand configurations' worth of 256 lines each lived long
        # enough to be promoted, and major GCs took back what reading in bulk saved).
        PENDING = 8

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
          rep_at = keys.index("rep")
          template = LineTemplate.for(keys, constant_at.zip(constants).to_h, record.values, varying, id_at, rep_at,
            columns.planned_id(""))
          new(columns, keys, constant_at, constants, constant_columns, varying, id_at, rep_at, template)
        end

        # template: the line form of this path (nil: lines must be parsed).
        def initialize(columns, keys, constant_at, constants, constant_columns, varying, id_at, rep_at, template)
          @columns = columns
          @keys = keys
          @constant_at = constant_at
          @constants = constants
          @constant_columns = constant_columns
          @varying = varying
          @id_at = id_at
          @rep_at = rep_at
          @template = template
          @pending = []
          # Constants eql? would take another spelling of (-0.0, a Hash's key order).
          @delicate = constant_at.zip(constants).select { |_, constant| Columns.delicate?(constant) }
        end

        # Appends record's varying fields and says true, or says false and
        # leaves everything as it was.
        def add(record)
          flush
          return false unless record.size == @keys.size && record.keys == @keys

          values = record.values
          return false unless values.values_at(*@constant_at).eql?(@constants)
          return false unless @delicate.all? { |i, constant| Columns.same?(values[i], constant) }

          # Every check before the first append: a bad line changes nothing.
          @varying.each { |i, _, key, kind| values[i] = RunRecord.field(key, values[i], kind) if kind }
          return false if @id_at && values[@id_at] != @columns.planned_id(@rep_at && values[@rep_at])

          @varying.each { |i, column| column.push(values[i]) }
          true
        end

        # Takes the rest of a line the template matches and says true (its
        # values reach the columns at the next flush), or says false and
        # takes nothing.
        def add_scanned(scanner)
          captures = @template&.captures(scanner) or return false

          @pending << captures
          flush if @pending.size >= PENDING
          true
        end

        # The pending lines' values into their columns, a column at a time.
        def flush
          return if @pending.empty?

          @pending.transpose.each_with_index { |texts, j| @varying[j][1].concat_values(@template.values(j, texts)) }
          @pending.clear
        end

        # The constant columns cover every row added so far.
        def settle(size)
          flush
          @constant_columns.each { |column| column.extend_to(size) }
        end
      end
    end
  end
end
