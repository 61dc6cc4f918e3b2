# frozen_string_literal: true

module Ractorbench
  module Plan
    # How suites shrink work for --scale F when the work is not a count of
    # messages. The aim is always the same: total cost about F times the full
    # run's, with the shape of the experiment (copies, workers, nodes) kept.
    module Plan::Scaling
      module_function

      def count(value, scale)
        [(value * scale).round, 1].max
      end

      # For a product of two sizes (ring: nodes x laps): each by sqrt(F).
      def square_root(value, scale)
        count(value, Math.sqrt(scale))
      end

      # fib(n) makes 2 fib(n+1) - 1 calls, so cost grows by ~1.618 per n; the
      # n whose call count is nearest (in ratio) to F times fib(n)'s.
      def fib_n(n, scale)
        target = fib_calls(n) * scale
        (1..n + 20).min_by { |m| (Math.log(fib_calls(m)) - Math.log(target)).abs }
      end

      def fib_calls(n)
        a, b = 0, 1
        (n + 1).times { a, b = b, a + b }
        2 * a - 1
      end
    end
  end
end
