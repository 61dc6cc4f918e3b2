# frozen_string_literal: true

require "time"
require_relative "../../../harness/ractorbench/harness/fields"

module Ractorbench
  module Measure
    # The one maker of a run's record in the driver, for a run that ran
    # (the Collector) and for one recorded without a result of its own (a
    # run that killed its collector, one blamed for a signal, a child whose
    # record was garbage). Every field goes through the field table
    # (Harness::Fields): the plan's first, then what the child and the
    # driver recorded, in the order a results line has them; a child that
    # writes a field of the plan's, or one no table declares, is an error
    # here (Clash, UnknownField), not a figure silently dropped.
    class Measure::RunBuilder
      Fields = Harness::Fields
      # What a record that breaks the field table raises.
      INVALID = [Fields::Clash, Fields::UnknownField].freeze

      # spec: a Plan::RunSpec; load_average: the 1-minute load average as
      # the run began (written only when given: a run recorded without
      # running has none).
      def initialize(spec, seq:, started_at: Time.now.utc.iso8601(3), **load_average)
        @record = Fields::Record.new(:plan, "the plan")
        @record.merge!("type" => "run", "id" => spec.id, "seq" => seq, "started_at" => started_at)
        @record.merge!(load_average.transform_keys(&:to_s), :driver, "the collector")
        @record.merge!(spec.to_h)
      end

      # The run's record: the outcome (a Record of the child's and the
      # driver's fields: Runner#call), then the driver's other fields.
      def run(outcome, driver = {})
        @record.merge!(outcome).merge!(driver, :driver, "the collector").to_h
      end

      # A run recorded as failed: failure and reason, after kept (the fields
      # of its outcome worth keeping, a Hash).
      def failed(failure, reason, kept = {})
        @record.merge!(kept, :driver, "the collector")
          .merge!({"status" => "failed", "failure" => failure, "reason" => reason}, :driver, "the collector").to_h
      end
    end
  end
end
