# frozen_string_literal: true

module Ractorbench
  module Store
    class Columns
      # A marker that is itself after a trip through Marshal (a forked
      # reader hands its columns back that way: SplitRead).
      class Marker
        def initialize(name)
          @name = name
          freeze
        end

        def _dump(_level) = @name

        def self._load(name) = Columns.const_get(name)

        def inspect = "#<#{@name}>"
      end

      # A field a run's line did not have (unlike a field it had as null).
      MISSING = Marker.new("MISSING")
    end
  end
end
