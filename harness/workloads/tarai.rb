# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "../ractorbench/harness/param_check"

module Ractorbench
  module Workloads
    # The Takeuchi function of the Ruby 3.0 release notes, "Exploring Ruby
    # Ractors" and "Ractor reconsidered" (seeds 003, 002): C independent
    # copies of tarai(x, y, z), deep recursion and nothing else.
    module Tarai
      extend Harness::Workload
      workload "tarai", "Takeuchi function tarai(x, y, z), one copy a job (seeds 002/003); --param x=,y=,z="

      def self.default_params = {x: 10, y: 5, z: 0}

      def self.validate(params, _count)
        %i[x y z].each do |key|
          problem = Harness::ParamCheck.integer(params, key, default_params[key])
          return problem if problem
        end
        nil
      end

      def self.jobs(count, params)
        Array.new(count, params.values_at(:x, :y, :z).freeze).freeze
      end

      def self.work((x, y, z))
        tarai(x, y, z)
      end

      def self.tarai(x, y, z) =
        (x <= y) ? y : tarai(tarai(x - 1, y, z), tarai(y - 1, z, x), tarai(z - 1, x, y))

      # McCarthy's closed form: what every copy must have returned.
      def self.closed_form(x, y, z)
        return y if x <= y

        (y <= z) ? z : x
      end

      def self.check(results, _count, params)
        x, y, z = params.values_at(:x, :y, :z)
        expected = closed_form(x, y, z)
        wrong = results.reject { |r| r == expected }
        "tarai(#{x}, #{y}, #{z}) should be #{expected}; #{wrong.size} copies gave #{wrong.first.inspect}" unless wrong.empty?
      end
    end
  end
end
