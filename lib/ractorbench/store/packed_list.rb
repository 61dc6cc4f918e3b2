# frozen_string_literal: true

require_relative "packings"

module Ractorbench
  module Store
    class Columns
      # A column's values once they vary (Column), a table's line offsets
      # and run order: appended to, read by index or whole. Numbers are kept
      # as codes (Packing) packed as few bytes each as the widest needs, so a
      # million runs' figures cost a few bytes a value where an Array costs 8
      # and its spare capacity (issue 24: a report of a million runs in
      # under 300 MB). A value its packing cannot give back exactly is kept
      # aside as it is (a run without the field, a null, 1 among 1.0s); a
      # list of values with no packing, or with too many aside, is a plain
      # Array again. Reading back never differs from what was appended.
      class PackedList
        # Values wait in an Array and are packed this many at a time: a
        # batch is checked and packed by a few calls in C, not a call a
        # value; and a thousand configurations' lists of twenty fields hold
        # little unpacked.
        BATCH = 64
        # Values with no packing yet (a field the first runs lacked) wait
        # this long for one that has one.
        UNDECIDED = 4 * BATCH
        # What a list has no use for yet, or any more: a thousand
        # configurations' twenty fields are tens of thousands of lists, and
        # each empty Array costs 40 bytes.
        NONE = [].freeze
        # A format for every code of a list ("l<*"), made once, not once a list.
        MANY = (Packing::FORMATS.values + ["E"]).to_h { |format| [format, "#{format}*".freeze] }.freeze

        def initialize(values = nil)
          @packing = nil
          @width = 0
          @format = @formats = nil
          @bytes = "".b
          @count = 0
          @aside_rows = @aside_values = NONE
          @batch = []
          @plain = nil
          concat(values) if values
        end

        def size = @plain ? @plain.size : @count + @batch.size
        alias_method :length, :size

        def empty? = size.zero?

        def <<(value)
          if @plain
            @plain << value
          else
            @batch = [] if @batch.frozen?
            @batch << value
            pack if @batch.size >= BATCH
          end
          self
        end

        # values: an Array, appended.
        def concat(values)
          if @plain
            @plain.concat(values)
          else
            @batch = [] if @batch.frozen?
            @batch.concat(values)
            pack if @batch.size >= BATCH
          end
          self
        end

        def [](index)
          index += size if index.negative?
          return nil if index.negative? || index >= size
          return @plain[index] if @plain
          return @batch[index - @count] if index >= @count

          aside = @aside_rows.bsearch_index { |row| row >= index }
          return @aside_values[aside] if aside && @aside_rows[aside] == index

          @packing.decode_one(@bytes.unpack1(@format, offset: index * @width))
        end

        def last = self[-1]

        # Every value, in a new Array, a missing field's MISSING as missing.
        def to_a(missing = MISSING)
          return given(@plain.dup, missing) if @plain

          list = @count.zero? ? [] : @packing.decode(@bytes.unpack(@formats), missing)
          @aside_rows.each_with_index do |row, i|
            value = @aside_values[i]
            list[row] = MISSING.equal?(value) ? missing : value
          end
          list.concat(given(@batch.dup, missing))
        end

        def values_at(*indexes) = Packing.pick(to_a, indexes)

        # count runs without the field, after those so far. A failed run
        # lacks a dozen measured fields, and a batch with a MISSING in it
        # would be coded the slow way, value by value: the batch keeps where
        # they are, is coded with a stand-in there (Packing#stand_in), and
        # they are set aside as they are packed. A table codes them (a
        # failure's reason is missing from most runs).
        def skip(count)
          unless @plain || @packing.nil? || @packing.code(MISSING)
            (@skipped ||= []) << [@batch.size, count]
          end
          concat(Array.new(count, MISSING))
        end

        def each(&block)
          return enum_for(:each) { size } unless block

          to_a.each(&block)
          self
        end

        # Everything packed and nothing held spare: reading is over, what
        # stays is kept a long while (or goes down a pipe).
        def trim
          pack unless @plain
          if @plain
            @plain += [] # an Array of just its size (dup would share the spare room)
          else
            @bytes = String.new(@bytes, capacity: @bytes.bytesize)
            @batch = NONE if @batch.empty?
          end
          self
        end

        # The packed bytes go as they are, not value by value.
        def marshal_dump
          pack unless @plain
          @plain ? [@plain] : [@packing&.key, @width, @count, @bytes, @aside_rows, @aside_values, @batch]
        end

        def marshal_load(state)
          initialize
          return @plain = state.first if state.size == 1

          key, width, @count, @bytes, @aside_rows, @aside_values, @batch = state
          @aside_rows = @aside_values = NONE if @aside_rows.empty?
          @batch = NONE if @batch.empty?
          return if key.nil?

          @packing = Packings.of(key)
          use_width(width)
        end

        private

        # The batch into the packed bytes, when it has a packing.
        def pack
          return if @batch.empty?

          @packing ||= Packings.for(@batch) || undecided or return
          codes = batch_codes
          if !Packing.complete?(codes) && (wider = @packing.wider(@batch, codes))
            repack(wider) or return
            codes = batch_codes
          end
          put_aside(codes) unless Packing.complete?(codes)
          append(codes)
          @batch.clear
          @skipped = nil
          plain! if @aside_rows.size > BATCH && @aside_rows.size * 4 > @count
        end

        # The batch's codes, nil for runs skipped (coded with a stand-in).
        def batch_codes
          return @packing.codes(@batch) unless @skipped

          batch = @batch.dup
          @skipped.each { |at, count| batch.fill(@packing.stand_in, at, count) }
          codes = @packing.codes(batch)
          @skipped.each { |at, count| codes.fill(nil, at, count) }
          codes
        end

        # Values a packing has no code for: kept aside, a 0 in their place.
        def put_aside(codes)
          writable_aside
          codes.each_with_index do |code, i|
            next unless code.nil?

            @aside_rows << @count + i
            @aside_values << @batch[i]
            codes[i] = 0
          end
        end

        def writable_aside
          @aside_rows, @aside_values = [], [] if @aside_rows.frozen?
        end

        def append(codes)
          return if codes.empty?

          widen(@packing.width || width_for(*codes.minmax))
          codes.pack(@formats, buffer: @bytes)
          @count += codes.size
        end

        def width_for(min, max)
          if min >= -0x80 && max < 0x80 then 1
          elsif min >= -0x8000 && max < 0x8000 then 2
          elsif min >= -0x80000000 && max < 0x80000000 then 4
          else 8
          end
        end

        def widen(width)
          return if width <= @width

          @bytes = @bytes.unpack(@formats).pack(MANY.fetch(format_of(width))) unless @count.zero?
          use_width(width)
        end

        def use_width(width)
          @width = width
          @format = format_of(width)
          @formats = MANY.fetch(@format)
        end

        def format_of(width) = @packing.format(width)

        # What is packed, in packing instead (a decimal of more places).
        # Values aside stay aside (a 0 in their place); nil when some other
        # value has no code in packing (then the list is plain).
        def repack(packing)
          codes = packing.codes(to_a(MISSING).first(@count))
          @aside_rows.each { |row| codes[row] = 0 }
          return plain! && nil unless Packing.complete?(codes)

          @packing = packing
          @bytes = "".b
          @width = 0
          @count = 0
          append(codes)
          self
        end

        # A batch with no packing yet (nulls, missing fields): a Table once
        # it is long enough, when a table takes them all, else plain.
        def undecided
          return nil if @batch.size < UNDECIDED
          return Packing::Table.new if @batch.all? { |value| Packing::Table.takes?(value) }

          plain! && nil
        end

        # values with MISSING as missing, in place.
        def given(values, missing)
          return values if missing.equal?(MISSING)

          values.map! { |value| MISSING.equal?(value) ? missing : value }
        end

        def plain!
          @plain = to_a(MISSING)
          @skipped = nil
          @packing = nil
          @bytes = nil
          @batch = @aside_rows = @aside_values = nil
          true
        end
      end
    end
  end
end
