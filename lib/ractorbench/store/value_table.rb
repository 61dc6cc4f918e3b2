# frozen_string_literal: true

require_relative "marker"
require_relative "packing"

module Ractorbench
  module Store
    class Columns
      class Packing
        # Values a column has few of (a status, a digest, a failure's reason
        # and stderr lines, each worker's jobs): each kept once, a run's code
        # its place in the table. Only values eql? tells apart as a line has
        # them (Columns.same?): Strings, flat lists of Strings and Integers,
        # null and a missing field; -0.0 or a Hash would be taken for 0.0 or
        # the same keys in another order.
        class Table < Packing
          # Codes stay two bytes; past this many values, more are kept aside.
          LIMIT = 1 << 15
          # Objects (frozen, shared by many runs) whose code is known by identity.
          KNOWN = 4096

          def self.takes?(value)
            case value
            when String, nil, Marker then true
            when Array then value.all? { |item| item.is_a?(String) || item.is_a?(Integer) }
            else false
            end
          end

          # values: the table as key gave it (a forked reader's).
          def initialize(values = [])
            @values = values
            @codes = values.each_with_index.to_h
            @known = {}.compare_by_identity
          end

          # Objects seen before looked up by identity, in C: runs whose line
          # a template read share their values (LineTemplate), and a list of
          # stderr lines is slow to hash. The rest one by one.
          def codes(values)
            codes = Packing.pick(@known, values)
            return codes if Packing.complete?(codes)

            @known.clear if @known.size > KNOWN
            codes.each_index do |i|
              next if codes[i]

              value = values[i]
              codes[i] = code(value)
              @known[value] = codes[i] if codes[i] && value.frozen?
            end
          end

          def code(value)
            @codes.fetch(value) do
              return nil unless @values.size < LIMIT && Table.takes?(value)

              # Kept frozen: every run that wrote it reads back this one.
              @values << (value.frozen? ? value : value.dup.freeze)
              @codes[@values.last] = @values.size - 1
            end
          end

          def decode(codes, missing = MISSING)
            return Packing.pick(@values, codes) if missing.equal?(MISSING)

            Packing.pick(@values.map { |value| MISSING.equal?(value) ? missing : value }, codes)
          end

          def decode_one(code) = @values[code]

          def key = @values
        end
      end
    end
  end
end
