# frozen_string_literal: true

require_relative "fields"

module Ractorbench
  module Harness
    # The contract a model module fulfils (extend it, then define `run`):
    #
    #   run(workload, jobs, workers)  every job's result, in any order
    #   unsupported_reason            nil, or why this Ruby cannot run the model
    #
    # A model knows nothing about any particular workload. Its family says
    # what carries its work (the driver reasons by family, never by name):
    # serial, thread, process, ractor or fiber.
    module Model
      FAMILIES = %w[serial thread process ractor fiber].freeze
      # How a model hands work to its workers, in words a recommendation can
      # use after the family's name ("ractors, each taking an equal share").
      SHAPES = {
        "queue" => "pulling items one at a time from a shared queue",
        "messages" => "one message each way per item",
        "batches" => "fed batches of items at their pace",
        "split" => "each taking an equal share of the items"
      }.freeze

      # The checks `try` makes of a user's work before its sweep
      # (harness/try/preflight.rb's stages, named so in its messages): a
      # model names those that must pass for it to run the work
      # (vouched_by); a check that fails rules out every model it vouches for.
      CHECKS = {
        "ractor" => "work(item) inside a ractor",
        "threads" => "work(item) in threads side by side",
        "marshal" => "checking results with Marshal"
      }.freeze

      # What the driver knows a model by: it reasons by these, never by a
      # model's name. Recorded in a results header (Plan::Catalog#traits).
      TRAITS = %i[family shape pattern baseline ceiling_of vouched_by].freeze

      attr_reader :name, :description, :file, :family, :shape, :pattern, :ceiling_of, :vouched_by

      # Speedups are measured against a baseline model, and its results are
      # the reference every other model's must match.
      def baseline = @baseline || false

      # shape: one of SHAPES; pattern: a few lines of Ruby a user can copy
      # that hand work out the same way (WORK(item), ITEMS, W and BATCH stand
      # for the user's call, list, worker count and batch size). baseline:
      # true for the model speedups are measured against; ceiling_of: the
      # per-job models this one (a split) is the ceiling of; vouched_by: the
      # CHECKS that must pass before it runs a user's work.
      def model(name, description, family: nil, shape: nil, pattern: nil, baseline: false, ceiling_of: [], vouched_by: [])
        unless family.nil? || FAMILIES.include?(family.to_s)
          raise ArgumentError, "model #{name}: family #{family.inspect} is not one of #{FAMILIES.join(", ")}"
        end
        unless shape.nil? || SHAPES.key?(shape.to_s)
          raise ArgumentError, "model #{name}: shape #{shape.inspect} is not one of #{SHAPES.keys.join(", ")}"
        end
        unknown = Array(vouched_by).map(&:to_s) - CHECKS.keys
        raise ArgumentError, "model #{name}: vouched_by #{unknown.first.inspect} is not one of #{CHECKS.keys.join(", ")}" unless unknown.empty?

        @name = name
        @description = description
        @family = family&.to_s
        @shape = shape&.to_s
        @pattern = pattern
        @baseline = baseline ? true : false
        @ceiling_of = Array(ceiling_of).map(&:to_s).freeze
        @vouched_by = Array(vouched_by).map(&:to_s).freeze
        @file = caller_locations(1, 1).first.absolute_path
        Harness.register_model(self)
      end

      def unsupported_reason
        nil
      end

      # Extra figures a model measured itself (e.g. the memory of forked
      # workers, which the driver cannot see), written by name through the
      # field table; merged into the run record.
      def extra_metrics
        @extra_metrics ||= Fields::Record.new(:worker, "model #{name}")
      end

      # How many jobs each worker did, in worker order: the run's own record
      # of how the work was spread, so an idle worker is visible afterwards.
      def record_jobs(counts)
        extra_metrics["worker_jobs"] = counts
      end

      # How many hand-overs (messages of jobs) each worker got, in worker
      # order: the run's record of its shape (a split is one each; batches
      # are far fewer than jobs; one job a message is as many as its jobs).
      def record_batches(counts)
        extra_metrics["worker_batches"] = counts
      end
    end
  end
end
