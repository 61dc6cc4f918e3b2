# frozen_string_literal: true

require_relative "workload"
require_relative "prepared_run"

module Ractorbench
  module Harness
    # A workload that measures a concurrency mechanism itself (creating
    # units, passing a token round a ring), so a model's job-distribution
    # code would only get in the way: it brings its own code for each model
    # name instead, and any other model gets a "not supported" row.
    #
    #   extend Harness::Primitive
    #   workload "spawn", "..."
    #   under "threads" do |jobs, workers, params|
    #     ...set-up, not timed...
    #     Harness::PreparedRun.new("variant" => "...") { ...timed; returns results... }
    #   end
    module Primitive
      include Workload

      def under(model_name, &setup)
        variants[model_name] = setup
      end

      def variants
        @variants ||= {}
      end

      def prepare(model, jobs, workers, params)
        setup = variants.fetch(model.name) do
          raise Unsupported, "#{name} measures #{variants.keys.join(", ")} directly; it has no #{model.name} variant"
        end
        setup.call(jobs, workers, params)
      end
    end
  end
end
