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
          together = kinds.each_index.select { |i| RunRecord::TOGETHER.include?(kinds[i]) }
          @together = together.group_by { |i| kinds[i] }.to_a
          @alone = (kinds.each_index.to_a - together).filter_map { |i| [i, keys[i], kinds[i]] if kinds[i] }
        end

        # values as RunRecord keeps them (printed ones made printable), or
        # nil when one of them is not what its field must be.
        def checked(values)
          return each_alone(values) unless @together.all? { |kind, at| RunRecord.together?(kind, values.values_at(*at)) }

          @alone.each { |i, key, kind| values[i] = RunRecord.field(key, values[i], kind) }
          values
        rescue RunRecord::BadLine
          nil
        end

        private

        def each_alone(values)
          @kinds.each_with_index { |kind, i| values[i] = RunRecord.field(@keys[i], values[i], kind) if kind }
          values
        end
      end
    end
  end
end
