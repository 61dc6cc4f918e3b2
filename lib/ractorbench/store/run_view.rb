# frozen_string_literal: true

require_relative "run_fields"

module Ractorbench
  module Store
    # One run of a file read by Store.read: a row of its configuration's
    # Columns, answering as a RunRecord does. Views are made when asked for
    # and hold nothing of their own, so keeping a million runs costs the
    # columns, not a million Hashes.
    class RunView
      include RunFields

      attr_reader :columns, :row

      def initialize(columns, row)
        @columns = columns
        @row = row
      end

      def configuration = @columns.configuration

      def [](key) = @columns.value(key, @row)

      def key?(key) = @columns.key?(key, @row)

      def fetch(key, *default)
        return self[key] if key?(key)
        return yield(key) if block_given?
        return default.first unless default.empty?

        raise KeyError, "key not found: #{key.inspect}"
      end

      def dig(key, *rest)
        value = self[key]
        (rest.empty? || value.nil?) ? value : value.dig(*rest)
      end

      def values_at(*keys) = keys.map { |k| self[k] }

      # Fields not kept are read from the run's line once, not once a key.
      def slice(*keys)
        return to_h.slice(*keys) unless keys.all? { |k| @columns.kept.key?(k) }

        keys.each_with_object({}) { |k, h| h[k] = self[k] if key?(k) }
      end

      # The run as it was written (its line, when the file still has it).
      def to_h = @columns.record(@row)

      def offset = @columns.offset(@row)

      def number = @columns.number(@row)

      def ==(other) = other.is_a?(RunView) && other.columns.equal?(@columns) && other.row == @row
      alias_method :eql?, :==

      def hash = [@columns.object_id, @row].hash
    end
  end
end
