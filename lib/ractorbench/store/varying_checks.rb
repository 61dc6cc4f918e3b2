# frozen_string_literal: true

require_relative "run_record"

module Ractorbench
  module Store
    class Columns
      # RunRecord.field for the varying fields of one shape of line, made
      # for a million lines: the numbers of one kind checked together by a
      # few calls in C (a call a value was a tenth of reading a big file),
      # the rest one by one. A line any number of fails is checked field by
      # field, so the answer, and a bad line's message, are RunRecord's.
      class VaryingChecks
        # kinds: each varying field's RunRecord kind (nil: not checked);
        # keys: their names.
        def initialize(kinds, keys)
          @kinds = kinds
          @keys = keys
          @together = Hash.new { |h, kind| h[kind] = [] }
          @alone = []
          kinds.each_with_index do |kind, i|
            next unless kind

            TOGETHER.include?(kind) ? @together[kind] << i : @alone << [i, keys[i], kind]
          end
          @together = @together.to_a
        end

        # values as RunRecord keeps them (printed ones made printable), or
        # nil when one of them is not what its field must be.
        def checked(values)
          return each_alone(values) unless @together.all? { |kind, at| send(kind, values.values_at(*at)) }

          @alone.each { |i, key, kind| values[i] = RunRecord.field(key, values[i], kind) }
          values
        rescue RunRecord::BadLine
          nil
        end

        private

        TOGETHER = %i[count seconds amount].freeze
        # -0.0 too: Array#- goes by eql? and hash, and Ruby hashes -0.0 as 0.0.
        ZEROS = [0, 0.0].freeze

        def each_alone(values)
          @kinds.each_with_index { |kind, i| values[i] = RunRecord.field(@keys[i], values[i], kind) if kind }
          values
        end

        def count(values) = values.all?(Integer) && values.min.positive?

        # Numbers only: minmax compares every value with others, and JSON
        # has no value but an Integer or Float that compares with a number.
        def amount(values)
          min, max = values.compact.minmax
          min.nil? || (min.is_a?(Numeric) && max.is_a?(Numeric) && min >= 0 && max < RunRecord::MAX_AMOUNT)
        rescue ArgumentError, NoMethodError
          false
        end

        # 0 is a reading too (no steal); any other under a nanosecond is not.
        def seconds(values)
          min, max = (values.compact - ZEROS).minmax
          min.nil? || (min.is_a?(Numeric) && max.is_a?(Numeric) && min >= RunRecord::MIN_SECONDS && max < RunRecord::MAX_SECONDS)
        rescue ArgumentError, NoMethodError
          false
        end
      end
    end
  end
end
