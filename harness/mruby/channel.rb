# frozen_string_literal: true

# mruby's side of the driver/child boundary (CRuby's is
# harness/ractorbench/harness/channel.rb). mruby has no Marshal, no require
# and no Regexp, so this file is given to it with `mruby -r` before the
# program that uses it, and it speaks the one format the boundary has:
# Marshal's (format 4.8), written and read here by hand for plain data
# only. The driver then reads an mruby child's records with the same
# bounded decoder as any other child's (Measure::ResultChannel: plain data,
# size and depth limited), and writes its spec the same way: there is one
# channel, not one per engine.
#
# Records go on file descriptor 3, as CRuby's do: mruby's IO opens it by
# number (IO.new(3, "w")). mruby has no ENV, so RACTORBENCH_RESULT_FD is not
# read; the driver always hands the channel over as fd 3.
module Ractorbench
  module Mruby
    module Channel
      FD = 3
      DEPTH = 32
      # Marshal's packed integers ("i") hold 31 bits; beyond, "l" (bignum).
      FIXNUM = 2**30

      # The spec the driver wrote on stdin, or nil (the probe gets none).
      def self.spec
        data = $stdin.read.to_s
        data.empty? ? nil : Reader.new(data).load
      end

      # One record in one write.
      def self.write(record)
        @io ||= IO.new(FD, "w")
        @io.write(dump(record))
        @io.flush
      end

      def self.dump(value)
        "\x04\x08" + Writer.new.value(value, 0)
      end

      # A duration in whole microseconds, sent as its exact decimal
      # ("0.012499"), which the driver reads as the nearest double: mruby's
      # own float formatting (and parsing) can be off in the last digit.
      class Seconds
        attr_reader :microseconds

        def initialize(microseconds)
          @microseconds = microseconds
        end

        def text
          whole = microseconds.abs
          "#{"-" if microseconds < 0}#{whole / 1_000_000}.#{(whole % 1_000_000).to_s.rjust(6, "0")}"
        end
      end

      # Marshal's format for nil, true, false, Integer, Float, String,
      # Symbol (as a String), Array and Hash (keys as Strings); anything
      # else travels as its #inspect, as CRuby's Channel.plain does.
      class Writer
        def value(value, depth)
          return string(value.inspect) if depth > DEPTH

          if value.nil? then "0"
          elsif value == true then "T"
          elsif value == false then "F"
          elsif value.is_a?(Integer) then integer(value)
          elsif value.is_a?(Float) then "f" + bytes(float_text(value))
          elsif value.is_a?(Seconds) then "f" + bytes(value.text)
          elsif value.is_a?(String) then string(value)
          elsif value.is_a?(Symbol) then string(value.to_s)
          elsif value.is_a?(Array) then "[" + long(value.size) + value.map { |v| value(v, depth + 1) }.join
          elsif value.is_a?(Hash) then hash(value, depth)
          else string(value.inspect)
          end
        end

        # Marshal's w_long: small values in one byte, others as 1 to 4
        # little-endian bytes after their signed count.
        def long(n)
          return "\x00" if n == 0
          return [n + 5].pack("C") if n > 0 && n < 123
          return [(n - 5) & 0xff].pack("C") if n < 0 && n > -124

          out = []
          1.upto(4) do |i|
            out << (n & 0xff)
            n >>= 8
            return [i, *out].pack("C*") if n == 0
            return [256 - i, *out].pack("C*") if n == -1
          end
          raise RangeError, "#{n} does not fit Marshal's packed integer"
        end

        private

        def integer(n)
          return "i" + long(n) if n >= -FIXNUM && n < FIXNUM

          magnitude = n.abs
          digits = []
          while magnitude > 0
            digits << (magnitude & 0xff)
            magnitude >>= 8
          end
          digits << 0 if digits.size % 2 == 1 # whole 16-bit words
          "l" + ((n < 0) ? "-" : "+") + long(digits.size / 2) + digits.pack("C*")
        end

        # The shortest text mruby reads back as the same Float. mruby's
        # formatter and parser are its own and may be off in the last digit,
        # so measured times travel as Seconds instead.
        def float_text(f)
          return "nan" if f.nan?
          return ((f > 0) ? "inf" : "-inf") if f.infinite?

          texts = [15, 16, 17].map { |digits| format("%.#{digits}g", f) }
          texts.find { |text| text.to_f == f } || texts.last # rubocop:disable Lint/FloatComparison -- a round trip is exact or not
        end

        def string(text) = '"' + bytes(text)

        def bytes(text) = long(text.bytesize) + text

        def hash(table, depth)
          out = "{" + long(table.size)
          table.each { |k, v| out += string(k.to_s) + value(v, depth + 1) }
          out
        end
      end

      # Reads the driver's spec: a Marshal dump of plain data (strings with
      # their encoding as an instance variable, which is skipped: mruby's
      # strings are bytes).
      class Reader
        def initialize(bytes)
          @bytes = bytes
          @at = 0
          @symbols = []
          @objects = []
        end

        def load
          raise ArgumentError, "the spec is not a Marshal 4.8 dump" unless byte == 4 && byte == 8

          value
        end

        private

        def value
          type = byte.chr
          case type
          when "0" then nil
          when "T" then true
          when "F" then false
          when "i" then long
          when "l" then entry(bignum)
          when "f" then entry(float(text(long)))
          when '"' then entry(text(long))
          when ":" then symbol
          when ";" then @symbols[long]
          when "@" then @objects[long]
          when "I" then with_ivars
          when "[" then array
          when "{", "}" then hash(type == "}")
          else raise ArgumentError, "the spec holds a Marshal type #{type.inspect} the mruby child does not read"
          end
        end

        def byte
          raise ArgumentError, "the spec is cut off at byte #{@at}" if @at >= @bytes.bytesize

          @at += 1
          @bytes.getbyte(@at - 1)
        end

        def text(count)
          @at += count
          @bytes.byteslice(@at - count, count)
        end

        def long
          c = byte
          c -= 256 if c > 127
          return 0 if c == 0
          return c - 5 if c > 4
          return c + 5 if c < -4

          n = 0
          c.abs.times { |i| n |= byte << (8 * i) }
          (c < 0) ? n - (1 << (8 * c.abs)) : n
        end

        def entry(object)
          @objects << object
          object
        end

        def bignum
          negative = byte.chr == "-"
          n = 0
          text(long * 2).bytes.each_with_index { |b, i| n |= b << (8 * i) }
          negative ? -n : n
        end

        def float(text)
          text = text.split("\0").first.to_s
          return 0.0 / 0 if text == "nan"
          return 1.0 / 0 if text == "inf"
          return -1.0 / 0 if text == "-inf"

          text.to_f
        end

        def symbol
          name = text(long)
          @symbols << name
          name
        end

        def with_ivars
          object = value
          long.times do
            value
            value
          end
          object
        end

        def array
          list = entry([])
          long.times { list << value }
          list
        end

        def hash(with_default)
          table = entry({})
          long.times do
            key = value
            table[key] = value
          end
          value if with_default
          table
        end
      end
    end
  end
end
