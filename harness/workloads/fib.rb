# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "../ractorbench/harness/param_check"

module Ractorbench
  module Workloads
    # "Exploring Ruby Ractors" (seed 003): C independent copies of a naive
    # recursive fib(n), pure method calls and Integer additions, no
    # allocation - the case where ractors should scale with cores.
    module Fib
      extend Harness::Workload
      workload "fib", "naive recursive fib(n), one copy a job (Exploring Ruby Ractors); --param n=N"

      def self.default_params = {n: 20}

      def self.validate(params, _count)
        Harness::ParamCheck.integer(params, :n, 20, min: 1)
      end

      def self.jobs(count, params)
        Array.new(count, params.fetch(:n)).freeze
      end

      # fib(n) makes 2 fib(n+1) - 1 calls; beyond n = 200 say Infinity.
      def self.estimate(count, params, per_call)
        n = params[:n]
        return nil unless n.is_a?(Integer)

        (n > 200) ? Float::INFINITY : count * (2 * iterative(n + 1) - 1) * per_call
      end

      def self.work(n)
        fibonacci(n)
      end

      # The seed's exact expression, so the measured calls are the seed's.
      def self.fibonacci(n)
        ((n == 0 || n == 1) && n) || fibonacci(n - 1) + fibonacci(n - 2)
      end

      # The reference the recursive results are checked against.
      def self.iterative(n)
        a, b = 0, 1
        n.times { a, b = b, a + b }
        a
      end

      def self.check(results, _count, params)
        expected = iterative(params.fetch(:n))
        wrong = results.reject { |r| r == expected }
        "fib(#{params[:n]}) should be #{expected}; #{wrong.size} copies gave #{wrong.first.inspect}" unless wrong.empty?
      end
    end
  end
end
