# frozen_string_literal: true

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

      attr_reader :name, :description, :file, :family

      def model(name, description, family: nil)
        unless family.nil? || FAMILIES.include?(family.to_s)
          raise ArgumentError, "model #{name}: family #{family.inspect} is not one of #{FAMILIES.join(", ")}"
        end

        @name = name
        @description = description
        @family = family&.to_s
        @file = caller_locations(1, 1).first.absolute_path
        Harness.register_model(self)
      end

      def unsupported_reason
        nil
      end

      # Extra figures a model measured itself (e.g. the memory of forked
      # workers, which the driver cannot see); merged into the run record.
      def extra_metrics
        @extra_metrics ||= {}
      end

      # How many jobs each worker did, in worker order: the run's own record
      # of how the work was spread, so an idle worker is visible afterwards.
      def record_jobs(counts)
        extra_metrics["worker_jobs"] = counts
      end
    end
  end
end
