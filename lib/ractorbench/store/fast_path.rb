# frozen_string_literal: true

require_relative "varying_checks"

module Ractorbench
  module Store
    class Columns
      # Folding a line field by field costs a method call per field, and a
      # million lines of thirty fields is most of `report`'s time. Lines of one
      # configuration mostly have the same fields in the same order (a few
      # shapes: an ok run's, a failed run's), the same names and a planned
      # id; for such a line, one comparison in C checks every constant at once
      # and the other fields are checked (RunRecord.field) and appended: a
      # constant was checked with the line it came from. Any other line goes
      # field by field, after which the fast path is worked out again.
      class FastPath
        # A line's varying values wait until this many lines have come, then
        # go into their columns a column at a time (a call a column, not a
        # call a value). Numbers are no objects of their own, so waiting lines
        # cost little; but not many, so that what does wait dies young (a
        # thousand configurations' worth of 256 lines each lived long enough
        # to be promoted, and major GCs took back what appending in bulk
        # saved). Against 4, 16 left the readers of a million real-shaped
        # runs 25 MB smaller in each of three runs (fewer Arrays made in
        # passing), and took less CPU in two of them.
        PENDING = 16
        # Fields taken from each line even while every run so far had the
        # same value (their column stays one value until a run differs): all
        # but those that name the configuration (its label's names and
        # counts). A measured figure is the same for a while and then is not
        # (a GC count, faults, steal), a status or digest until a run fails,
        # and each such change would cost a new path and its template;
        # printed text is kept as Printable makes it, never as the line has it.
        NAMING = %i[text printed_text count params].freeze
        PER_RUN = %w[rep seq].freeze

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
            elsif column.constant? && !taken?(key, record[key])
              constant_at << i
              constants << column.constant
              constant_columns << column
            else
              varying << [i, column, key, RunRecord::KINDS[key]]
            end
          end
          rep_at = keys.index("rep")
          # Made when a line is first scanned with it: a line parsed (one
          # that no template took) needs none, and a Regexp costs a tenth of
          # a millisecond.
          samples = record.values
          template = -> { LineTemplate.for(keys, constant_at.zip(constants).to_h, samples, varying, id_at, rep_at, columns.planned_id("")) }
          new(columns, keys, constant_at, constants, constant_columns, varying, id_at, rep_at, template)
        end

        # Only a value a template can take (LineTemplate::FORMS); never the
        # line's type, which every template starts with.
        def self.taken?(key, value)
          kind = RunRecord::KINDS[key]
          return false if key == "type" || !LineTemplate::FORMS.key?([kind, LineTemplate.sample_type(value)])

          !NAMING.include?(kind) || PER_RUN.include?(key)
        end

        attr_reader :keys

        # The line form of this path (nil: lines must be parsed).
        def template
          @template = @template.call if @template.is_a?(Proc)
          @template
        end

        # template: a Proc that makes the line form.
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
          # The waiting lines' values one after another in one Array: they
          # are numbers, flags and shared texts, no objects of their own, so
          # nothing a line made outlives it. An Array a line lived through
          # a dozen minor GCs (a thousand configurations' lines come between
          # two of one configuration), was promoted, and died old: a major
          # GC every 25,000 lines of a big file.
          @pending = []
          @full = PENDING * varying.size
          @varying_at = varying.map(&:first)
          @checks = VaryingChecks.new(varying.map(&:last), varying.map { |v| v[2] })
          # Constants eql? would take another spelling of (-0.0, a Hash's key order).
          @delicate = constant_at.zip(constants).select { |_, constant| Columns.delicate?(constant) }
        end

        # Whether lines can be taken this way at row size: every constant
        # still the value of each run so far (runs of another shape may have
        # lacked it, or changed it). Varying columns take any row (padded).
        def usable?(size) = @constant_columns.all? { |column| column.constant? && column.length == size }

        # Appends record's varying fields at row and says true, or says false
        # and leaves everything as it was. The values wait (pending) and go
        # into their columns a column at a time.
        def add(record, row)
          return false unless record.size == @keys.size && record.keys == @keys

          values = record.values
          return false unless values.values_at(*@constant_at).eql?(@constants)
          return false unless @delicate.all? { |i, constant| Columns.same?(values[i], constant) }
          return false if @id_at && values[@id_at] != @columns.planned_id(@rep_at && values[@rep_at])

          # Every check before the first append: a bad line changes nothing.
          varying = values.values_at(*@varying_at)
          return false unless (varying = @checks.checked(varying))

          take(varying, row)
          true
        end

        # The varying fields' values of the rest of a line at scanner's
        # position when the template matches it (the scanner then past it),
        # else nil.
        def match(scanner) = template&.captures(scanner)

        # Takes a line's varying values (match, or add's) as row; they reach
        # the columns at the next flush.
        def take(values, row)
          @pending_row = row if @pending.empty?
          @pending.concat(values)
          flush if @pending.size >= @full
        end

        # The pending lines' values into their columns, a column at a time.
        def flush
          return if @pending.empty?

          @pending.each_slice(@varying.size).to_a.transpose.each_with_index { |values, j| @varying[j][1].concat_values(values, @pending_row) }
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
