# frozen_string_literal: false

# NOT frozen: with frozen string literals "" would be one shared object and
# the loop would allocate a third less than the seed's.

require_relative "../ractorbench/harness"
require_relative "../ractorbench/harness/param_check"

module Ractorbench
  module Workloads
    # "Ractor reconsidered" (seed 002): N iterations allocating ["", {}, []],
    # four objects each. Through Ruby 4.0 every ractor shares one heap and GC
    # stops them all, so parallel copies can be slower than sequential ones.
    module Alloc
      extend Harness::Workload
      workload "alloc", "N iterations allocating [\"\", {}, []], one copy a job (Ractor reconsidered); --param iterations=N"

      OBJECTS_PER_ITERATION = 4

      def self.default_params = {iterations: 100_000}

      def self.validate(params, _count)
        Harness::ParamCheck.integer(params, :iterations, 100_000, min: 1)
      end

      # About 14 plain calls' time an iteration, GC included.
      def self.estimate(count, params, per_call)
        iterations = params[:iterations]
        count * iterations * 14 * per_call if iterations.is_a?(Integer)
      end

      def self.jobs(count, params)
        Array.new(count, params.fetch(:iterations)).freeze
      end

      # Counts what it built, so the check sees the work done, not a constant.
      def self.work(iterations)
        made = 0
        iterations.times { made += ["", {}, []].size + 1 }
        made
      end

      def self.check(results, _count, params)
        expected = params.fetch(:iterations) * OBJECTS_PER_ITERATION
        wrong = results.reject { |r| r == expected }
        "each copy should allocate #{expected} objects; #{wrong.size} copies counted #{wrong.first.inspect}" unless wrong.empty?
      end
    end
  end
end
