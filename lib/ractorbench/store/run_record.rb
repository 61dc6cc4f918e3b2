# frozen_string_literal: true

require "forwardable"
require_relative "../plan/configuration"
require_relative "../printable"

module Ractorbench
  module Store
    # One run as read back from a results file, its types checked here and
    # nowhere else: a line of the wrong shape becomes a BadLine naming what is
    # wrong, never a NoMethodError deep inside a report. The JSON line is kept
    # as it was (to_h), so the file format stays the contract it always was;
    # fields a workload or model adds beyond the core ones are kept too.
    class RunRecord
      extend Forwardable

      BadLine = Class.new(StandardError)
      STATUSES = %w[ok failed unsupported].freeze
      TEXT = %w[id workload model ruby].freeze
      COUNTS = %w[workers messages rep].freeze
      # A run longer than a year is a damaged line, not a measurement.
      SECONDS = %w[messages_time whole_time user system others_cpu steal].freeze
      MAX_SECONDS = 365 * 24 * 3600.0
      # Text reports print as they are, coloured or not: no control character
      # in them may reach a terminal (Printable.name; names are made so by
      # Plan::Configuration).
      PRINTED = %w[id reason failure].freeze
      PRINTED_LINES = %w[stderr_head stderr_tail backtrace].freeze

      def_delegators :@data, :[], :fetch, :dig, :values_at, :key?, :slice, :to_h

      # record: a Hash parsed from one JSON line of type "run".
      def self.parse(record)
        raise BadLine, "not a JSON object" unless record.is_a?(Hash)

        TEXT.each { |k| check(record[k].is_a?(String) && !record[k].empty?, k, "a non-empty string") }
        COUNTS.each { |k| check(record[k].is_a?(Integer) && record[k].positive?, k, "a positive integer") }
        params = record.fetch("params", {})
        check(params.is_a?(Hash) && params.values.all? { |v| scalar?(v) }, "params", "an object of plain values")
        check(STATUSES.include?(record["status"]), "status", STATUSES.join(" or "))
        SECONDS.each do |k|
          v = record[k]
          check(v.nil? || (v.is_a?(Numeric) && v.finite? && v >= 0 && v < MAX_SECONDS), k, "a number of seconds")
        end
        check([nil, true, false].include?(record["disturbed"]), "disturbed", "true or false")
        new(printable(record))
      end

      def self.printable(record)
        PRINTED.each { |k| record[k] = Printable.name(record[k]) if record.key?(k) }
        PRINTED_LINES.each { |k| record[k] = record[k].map { |line| Printable.name(line) } if record[k].is_a?(Array) }
        record
      end

      def self.check(ok, field, wanted)
        raise BadLine, "#{field} is not #{wanted}" unless ok
      end

      def self.scalar?(value) = value.nil? || value.is_a?(String) || value.is_a?(Numeric) || value == true || value == false

      def initialize(data)
        @data = data
        @configuration = Plan::Configuration.of(data)
      end

      attr_reader :configuration

      def id = @data["id"]
      def status = @data["status"]
      def ok? = status == "ok"
      def failed? = status == "failed"
      def unsupported? = status == "unsupported"
      def reason = @data["reason"]
      def digest = @data["digest"]
      def messages_time = @data["messages_time"]
      def whole_time = @data["whole_time"]
      def cpu_seconds = @data["user"].to_f + @data["system"].to_f

      # Other programs kept the machine busy during this run (Measure::Interference).
      def disturbed? = @data["disturbed"] == true
    end
  end
end
