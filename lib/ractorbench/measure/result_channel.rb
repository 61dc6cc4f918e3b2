# frozen_string_literal: true

require_relative "../../../harness/ractorbench/harness/fields"

module Ractorbench
  module Measure
    # Decodes what a child wrote on its result channel (fd 3): one or more
    # Marshal dumps of plain data (Harness::Channel). The bytes come from code
    # under test, so they are not handed to Marshal.load, which would build
    # any object of any class the driver knows, recurse until SystemStackError
    # on deep nesting and allocate whatever size a header claims. This reads
    # Marshal's format itself, for plain data only: nil, true, false, Integer,
    # Float, String, Symbol (as a String), Array and Hash, nested at most
    # DEPTH deep, every count checked against the bytes left. Anything else is
    # Garbage, which the caller records as "garbage on the result channel".
    # Strings come out valid UTF-8: bytes that are not are written \xNN.
    class ResultChannel
      Garbage = Class.new(StandardError)

      LIMIT = 8 * 1024 * 1024
      # The mark's key, as the child's Harness::Channel writes it.
      MEASURED = Harness::Fields::MEASURED
      DEPTH = 64
      MAJOR = 4
      MINOR = 8

      # [records, problem]: the Hashes decoded in order, and nil or why the
      # rest could not be read. A dump cut off at the very end (a child killed
      # mid-write) is a problem too; the caller decides what it means.
      def self.decode(bytes, limit: LIMIT)
        bytes = bytes.to_s.b
        return [[], "more than #{limit / 1024 / 1024} MB"] if bytes.bytesize > limit

        records = []
        reader = new(bytes)
        until reader.done?
          record = reader.next_dump
          raise Garbage, "a record that is not a Hash (#{kind(record)})" unless record.is_a?(Hash)

          records << record
        end
        [records, nil]
      rescue Garbage => e
        [records, e.message]
      end

      def self.kind(value)
        return value.inspect if value.nil? || value == true || value == false

        name = value.class.name.to_s
        "#{name.match?(/\A[AEIOU]/) ? "an" : "a"} #{name}"
      end

      # Invalid UTF-8 byte sequences as \xNN: a digest of raw bytes stays
      # distinct from another, which "?" replacement would not keep.
      def self.utf8(text)
        text = text.dup.force_encoding(Encoding::UTF_8)
        text.valid_encoding? ? text : text.scrub { |bad| bad.unpack("C*").map { |b| format("\\x%02X", b) }.join }
      end

      def initialize(bytes)
        @bytes = bytes
        @at = 0
      end

      def done? = @at >= @bytes.bytesize

      def next_dump
        major, minor = byte, byte
        raise Garbage, "not a Marshal dump at byte #{@at - 2}" unless major == MAJOR && minor == MINOR

        @symbols = []
        @objects = []
        value(0)
      end

      private

      def value(depth)
        raise Garbage, "nested more than #{DEPTH} deep" if depth > DEPTH

        type = byte
        case type
        when 0x30 then nil # "0"
        when 0x54 then true # "T"
        when 0x46 then false # "F"
        when 0x69 then long # "i"
        when 0x6C then entry(bignum) # "l"
        when 0x66 then entry(float) # "f"
        when 0x22 then entry(self.class.utf8(bytes(count))) # '"'
        when 0x3A then symbol # ":"
        when 0x3B then symbol_link # ";"
        when 0x40 then object_link # "@"
        when 0x49 then with_ivars(depth) # "I"
        when 0x5B then array(depth) # "["
        when 0x7B, 0x7D then hash(depth, default: type == 0x7D) # "{", "}"
        else raise Garbage, "an object of type #{type.chr.inspect} at byte #{@at - 1} (only plain data is accepted)"
        end
      end

      def byte
        raise Garbage, "cut off at byte #{@at}" if @at >= @bytes.bytesize

        @at += 1
        @bytes.getbyte(@at - 1)
      end

      def bytes(count)
        raise Garbage, "claims #{count} bytes with #{left} left" if count.negative? || count > left

        @at += count
        @bytes.byteslice(@at - count, count)
      end

      def left = @bytes.bytesize - @at

      # Marshal's packed integer (w_long).
      def long
        c = byte
        c -= 256 if c > 127
        return 0 if c.zero?
        return c - 5 if c > 4
        return c + 5 if c < -4

        value = 0
        c.abs.times { |i| value |= byte << (8 * i) }
        c.negative? ? value - (1 << (8 * c.abs)) : value
      end

      def count
        n = long
        raise Garbage, "claims #{n} elements with #{left} bytes left" if n.negative? || n > left

        n
      end

      def entry(object)
        @objects << object
        object
      end

      def bignum
        sign = byte
        words = count
        value = bytes(words * 2).unpack("C*").each_with_index.sum { |b, i| b << (8 * i) }
        (sign == 0x2D) ? -value : value
      end

      def float
        text = bytes(count).split("\0", 2).first.to_s
        case text
        when "nan" then Float::NAN
        when "inf" then Float::INFINITY
        when "-inf" then -Float::INFINITY
        else Float(text)
        end
      rescue ArgumentError
        raise Garbage, "a float that is not a number"
      end

      def symbol
        name = self.class.utf8(bytes(count))
        @symbols << name
        name
      end

      def symbol_link
        @symbols.fetch(long) { raise Garbage, "a link to a symbol never seen" }
      end

      # Only to a leaf (a String, Float or Integer seen before): a link to an
      # Array or Hash could make a cycle, which no results line can hold.
      def object_link
        object = @objects.fetch(long) { raise Garbage, "a link to an object never seen" }
        raise Garbage, "a link back to an #{object.class}" if object.is_a?(Array) || object.is_a?(Hash)

        object
      end

      # "I": a String (or Symbol) followed by its instance variables (its
      # encoding, :E or :encoding), skipped: the harness sends UTF-8 or bytes.
      def with_ivars(depth)
        raise Garbage, "instance variables on something other than a string" unless [0x22, 0x3A].include?(@bytes.getbyte(@at))

        object = value(depth + 1)
        count.times do
          value(depth + 1)
          value(depth + 1)
        end
        object
      end

      def array(depth)
        list = entry([])
        count.times { list << value(depth + 1) }
        list
      end

      def hash(depth, default:)
        table = entry({})
        count.times do
          key = value(depth + 1)
          raise Garbage, "a Hash key that is #{self.class.kind(key)}" unless key.is_a?(String)

          table[key] = value(depth + 1)
        end
        value(depth + 1) if default
        table
      end
    end
  end
end
