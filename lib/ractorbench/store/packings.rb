# frozen_string_literal: true

require_relative "marker"
require_relative "packing"
require_relative "value_table"

module Ractorbench
  module Store
    class Columns
      # Which Packing a PackedList's values take.
      module Packings
        KINDS = [Packing::INTEGER, Packing::DOUBLE, Packing::FLAG].to_h { |packing| [packing.key, packing] }.freeze

        module_function

        # The packing of the first value in values that has one, nil if none
        # has (nulls and missing fields say nothing of the values to come).
        def for(values)
          values.each do |value|
            case value
            when Integer then return Packing::INTEGER if Packing::INTEGER.code(value)
            when Float then return Packing::Decimal.for(value) || Packing::DOUBLE
            when true, false then return Packing::FLAG
            when nil, Marker then next
            else return Packing::Table.new if Packing::Table.takes?(value)
            end
          end
          nil
        end

        # The packing key (Packing#key, in a marshal_dump) names.
        def of(key)
          case key
          when Integer then Packing::Decimal.of(key)
          when Array then Packing::Table.new(key)
          else KINDS.fetch(key)
          end
        end
      end
    end
  end
end
