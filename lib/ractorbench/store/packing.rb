# frozen_string_literal: true

require_relative "marker"

module Ractorbench
  module Store
    class Columns
      # How a PackedList turns one kind of value into whole numbers (codes)
      # and back (which packing for which values: Packings). A million
      # runs' varying figures kept as Ruby Arrays cost 8 bytes a value and
      # about half as much again in spare capacity; as codes packed a few
      # bytes each they cost a fraction of that.
      #
      # A value a packing cannot give back exactly has no code (nil): another
      # type, -0.0 as a decimal, an Integer past 64 bits. The list keeps such
      # a value aside, as it is, so nothing read back ever differs from its
      # line (Columns.same?).
      class Packing
        # How a code of so many bytes is packed, by how far from 0 the codes go.
        FORMATS = {1 => "c", 2 => "s<", 4 => "l<", 8 => "q<"}.freeze

        # Longer lists than this are not splatted into values_at: a
        # million runs' worth of arguments do not fit on the VM's stack.
        SPLAT = 4096

        # list.values_at(*indexes), for any number of indexes.
        def self.pick(list, indexes) = (indexes.size <= SPLAT) ? list.values_at(*indexes) : indexes.map { |i| list[i] }

        # Whether every value had a code. (include?(nil) would call
        # Integer#== on every code: a tenth of reading a big file.)
        def self.complete?(codes) = codes.compact.size == codes.size

        # Bytes a code takes when every code has the same size (nil: as few
        # as the widest code so far needs, PackedList).
        def width = nil

        def format(width) = FORMATS.fetch(width)

        # What this packing makes of values, nil where it cannot.
        def codes(values) = values.map { |value| code(value) }

        # A packing that codes more of values than codes did (a decimal of
        # more places), or nil.
        def wider(_values, _codes) = nil

        # A value every list of this packing codes (PackedList#skip).
        def stand_in = 0

        # codes back into values, in place (missing: what a table gives for MISSING).
        def decode(codes, _missing = MISSING) = codes

        def decode_one(code) = code

        # What marshal_dump writes for it.
        def key = self.class.name.split("::").last

        # Integers, as they are, from -2**63 to 2**63 - 1.
        class Integers < Packing
          MIN = -(1 << 63)
          MAX = (1 << 63) - 1

          def code(value) = (value.is_a?(Integer) && value >= MIN && value <= MAX) ? value : nil

          # All Integers in range, or value by value. The sum tells in C, a
          # few times quicker than all?(Integer): any Float makes it a Float,
          # anything not a number raises.
          def codes(values)
            if values.sum.is_a?(Integer)
              min, max = values.minmax
              return values.dup if min.nil? || (min >= MIN && max <= MAX)
            end
            super
          rescue TypeError
            super
          end
        end

        # Floats written with at most PLACES decimal places ("0.078388"):
        # the count k of their last place. JSON reads those digits as the
        # Float nearest to them, and k / 10.0**places, an IEEE division, is
        # correctly rounded: the same Float. Checked all the same for every
        # value, and -0.0 (which the division would make 0.0) never coded.
        class Decimal < Packing
          PLACES = 6

          def self.of(places) = ALL.fetch(places)

          # The decimal of fewest places that codes value, nil if none does.
          def self.for(value) = ALL.find { |decimal| decimal.code(value) }

          attr_reader :places

          def initialize(places)
            @places = places
            @scale = 10.0**places
            # Codes stay under 2**53, where every Integer is a Float exactly.
            @limit = 2.0**52 / @scale
            freeze
          end

          def code(value)
            return nil unless value.is_a?(Float) && value.abs < @limit

            k = (value * @scale).round
            k if k / @scale == value && (k != 0 || value.arg == 0) # arg: π for -0.0 (Columns.same?)
          end

          # Floats only (checked in C) take a leaner block: a big file has
          # millions of them.
          def codes(values)
            return super unless values.all?(Float)

            scale = @scale
            limit = @limit
            values.map do |value|
              next unless value < limit && value > -limit

              k = (value * scale).round
              k if k / scale == value && (k != 0 || value.arg == 0)
            end
          end

          # A Float not coded (but -0.0, which no decimal codes) needs more
          # places, or doubles when no number of places is enough.
          def wider(values, codes)
            missed = values.each_index.filter_map do |i|
              value = values[i]
              value if codes[i].nil? && value.is_a?(Float) && !(value.zero? && value.arg != 0)
            end
            return nil if missed.empty?

            ALL.drop(places + 1).find { |decimal| Packing.complete?(decimal.codes(missed)) } || DOUBLE
          end

          def decode(codes, _missing = MISSING)
            scale = @scale
            codes.map! { |k| k / scale }
          end

          def decode_one(code) = code / @scale

          def stand_in = 0.0

          def key = places

          ALL = (0..PLACES).map { |places| new(places) }.freeze
        end

        # Any Float, as its 8 bytes (-0.0 and all): for figures of more
        # places than Decimal keeps (a time measured to the nanosecond).
        class Doubles < Packing
          def width = 8

          def format(_width) = "E"

          def stand_in = 0.0

          def code(value) = value.is_a?(Float) ? value : nil

          def codes(values) = values.all?(Float) ? values.dup : super
        end

        # true and false, a byte each.
        class Flags < Packing
          CODES = {true => 1, false => 0}.freeze
          VALUES = CODES.invert.freeze

          def width = 1

          def code(value) = CODES[value]

          def codes(values) = values.map(&CODES)

          def decode(codes, _missing = MISSING) = codes.map!(&VALUES)

          def decode_one(code) = VALUES[code]

          def stand_in = false
        end

        INTEGER = Integers.new.freeze
        DOUBLE = Doubles.new.freeze
        FLAG = Flags.new.freeze
      end
    end
  end
end
