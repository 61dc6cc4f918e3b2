# frozen_string_literal: true

module Ractorbench
  module Profile
    # What the values of a profile line share (a Struct that includes it):
    # each member is named by its key in the results file's JSON, read from
    # it once (from) and written back (to_h) without the members that are
    # nil, as the line had them. A key no member names is left out.
    module JsonValue
      def self.included(struct) = struct.extend(Reading)

      # A value of this kind, or a list of them, as JSON keeps it.
      def self.written(value)
        case value
        when JsonValue then value.to_h
        when Array then value.map { |v| written(v) }
        else value
        end
      end

      module Reading
        # nil for anything but a Hash.
        def from(hash)
          return nil unless hash.is_a?(Hash)

          new(**hash.slice(*members.map(&:to_s)).transform_keys(&:to_sym))
        end

        # A list of them; an entry that is not a Hash left out.
        def list(array) = Array(array).filter_map { |h| from(h) }
      end

      def to_h = each_pair.filter_map { |member, value| [member.to_s, JsonValue.written(value)] unless value.nil? }.to_h
    end
  end
end
