# frozen_string_literal: true

require "forwardable"
require_relative "../plan/configuration"
require_relative "../base/printable"
require_relative "../base/numbers"
require_relative "run_fields"
require_relative "../../../harness/ractorbench/harness/fields"

module Ractorbench
  module Store
    # One run as read back from a results file, its types checked here and
    # nowhere else: a line of the wrong shape becomes a BadLine naming what is
    # wrong, never a NoMethodError deep inside a report. The JSON line is kept
    # as it was (to_h), so the file format stays the contract it always was;
    # fields a workload or model adds beyond the core ones are kept too.
    # Which field is checked as what is the field table's (Harness::Fields).
    class RunRecord
      extend Forwardable

      BadLine = Class.new(StandardError)
      STATUSES = Harness::Fields::STATUSES
      # A run longer than a year is a damaged line, not a measurement.
      MAX_SECONDS = 365 * 24 * 3600.0
      # A time under a nanosecond but not 0 is no clock's reading: a ratio
      # over it would not even be a finite number.
      MIN_SECONDS = 1e-9
      # What a run and its workers report about themselves (memory, GC, page
      # faults, switches, allocations, CPU seconds, the load average): any
      # number from 0 up to one no run reaches, so that sums and ratios of
      # them stay finite.
      MAX_AMOUNT = 1e15

      def_delegators :@data, :[], :fetch, :dig, :values_at, :key?, :slice, :to_h

      # record: a Hash parsed from one JSON line of type "run".
      def self.parse(record) = new(validate(record))

      # What each field a report reads must be (the field table's checked
      # kinds); any other field is kept as it is. Text reports print as they
      # are, coloured or not: no control character in a printed field may
      # reach a terminal (Printable.name; names are made so by
      # Plan::Configuration).
      KINDS = Harness::Fields.checks
      REQUIRED = Harness::Fields.required.map(&:name).freeze

      # The record itself, its types checked and its printed fields made
      # printable; a BadLine naming the first field of the wrong shape.
      def self.validate(record)
        raise BadLine, "not a JSON object" unless record.is_a?(Hash)

        REQUIRED.each { |k| field(k, record[k]) } # present, and the first of them wrong named first
        record.each { |k, v| (kind = KINDS[k]) && (record[k] = field(k, v, kind)) }
        record
      end

      # The value a run's field is kept as (made printable where it is
      # printed), or a BadLine saying what it should be. Read for every line
      # of a file: the message is built only for a bad one.
      def self.field(key, value, kind = KINDS[key])
        case kind
        when :text, :printed_text
          bad(key, "a non-empty string") unless value.is_a?(String) && !value.empty?
          (kind == :printed_text) ? Printable.name(value) : value
        when :count
          (value.is_a?(Integer) && value.positive? && value < Numbers::LIMIT) ? value : bad(key, "a positive integer under 10^18")
        when :seconds
          seconds = value.nil? || (value.is_a?(Numeric) && (value.zero? || (value >= MIN_SECONDS && value < MAX_SECONDS)))
          seconds ? value : bad(key, "a number of seconds")
        when :amount
          amount = value.nil? || (value.is_a?(Numeric) && value >= 0 && value < MAX_AMOUNT)
          amount ? value : bad(key, "a number from 0 to under 10^15")
        when :status then STATUSES.include?(value) ? value : bad(key, STATUSES.join(" or "))
        when :boolean then (value.nil? || value == true || value == false) ? value : bad(key, "true or false")
        when :params
          plain = value.is_a?(Hash) && (value.empty? || value.each_value.all? { |v| scalar?(v) })
          plain ? value : bad(key, "an object of plain values, numbers finite and under 10^18")
        when :printed then Printable.name(value)
        when :printed_lines then value.is_a?(Array) ? value.map { |line| Printable.name(line) } : value
        else value
        end
      end

      def self.bad(field, wanted)
        raise BadLine, "#{field} is not #{wanted}"
      end

      def self.scalar?(value) = value.nil? || value.is_a?(String) || Numbers.bounded?(value) || value == true || value == false

      def initialize(data)
        @data = data
        @configuration = Plan::Configuration.of(data)
      end

      attr_reader :configuration

      include RunFields
    end
  end
end
