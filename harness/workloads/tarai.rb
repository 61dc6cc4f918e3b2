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
      workload "tarai", "Takeuchi function tarai(x, y, z), one copy a job (Ractor reconsidered, Exploring Ruby Ractors); --param x=,y=,z="

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

      # How many calls tarai(x, y, z) makes, from the recursion itself
      # (memoised, the arguments' results from the closed form); beyond x =
      # 40 it is astronomically many, said as Infinity.
      def self.calls(x, y, z, memo = {})
        return 1 if x <= y
        return Float::INFINITY if x > 40 || [x, y, z].min < -40

        memo[[x, y, z]] ||= begin
          inner = [[x - 1, y, z], [y - 1, z, x], [z - 1, x, y]]
          1 + inner.sum { |args| calls(*args, memo) } + calls(*inner.map { |args| closed_form(*args) }, memo)
        end
      end

      # For --scale F: tarai's cost jumps steeply with x, so among tarai(x',
      # y', z) with y' < x' (same z, same result shape), the one whose number
      # of calls is nearest (in ratio) to F times tarai(x, y, z)'s.
      def self.scaled_args(x, y, z, scale)
        target = calls(x, y, z) * scale
        candidates = (z + 2..x + 6).flat_map { |a| (z + 1...a).map { |b| [a, b, z] } }
        candidates.min_by { |args| (Math.log(calls(*args)) - Math.log(target)).abs }
      end

      # One tarai call costs about four plain calls' time.
      def self.estimate(count, params, per_call)
        x, y, z = params.values_at(:x, :y, :z)
        count * 4 * calls(x, y, z) * per_call if [x, y, z].all?(Integer)
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
