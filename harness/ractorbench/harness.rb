# frozen_string_literal: true

# Everything that runs inside the measured child process lives under harness/.
# It loads nothing but Ruby's standard library (and what a model itself needs),
# so that the numbers measure the model, not ractorbench.

module Ractorbench
  module Harness
    @workloads = {}
    @models = {}

    class << self
      attr_reader :workloads, :models
      # Closes the driver's result channel (set by Channel.io).
      attr_accessor :close_result_channel

      # A forked worker must not hold the driver's result channel open, or
      # the driver would wait for it after the run's own process ended.
      def after_fork
        close_result_channel&.call
      end

      def register_workload(workload)
        @workloads[workload.name] = workload
      end

      def register_model(model)
        @models[model.name] = model
      end
    end
  end
end

require_relative "harness/ractor_compat"
require_relative "harness/high_descriptor"
require_relative "harness/closed_by_run"
require_relative "harness/workload"
require_relative "harness/primitive"
require_relative "harness/model"
require_relative "harness/memory"
require_relative "harness/result_message"
require_relative "harness/start_gate"
require_relative "harness/shares"
require_relative "harness/wire"
require_relative "harness/batch_pace"
require_relative "harness/run_cost"
