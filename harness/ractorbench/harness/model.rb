# frozen_string_literal: true

module Ractorbench
  module Harness
    # The contract a model module fulfils (extend it, then define `run`):
    #
    #   run(workload, jobs, workers)  every job's result, in any order
    #   unsupported_reason            nil, or why this Ruby cannot run the model
    #
    # A model knows nothing about any particular workload.
    module Model
      attr_reader :name, :description, :file

      def model(name, description)
        @name = name
        @description = description
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
    end
  end
end
