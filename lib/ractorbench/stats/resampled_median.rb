# frozen_string_literal: true

module Ractorbench
  module Stats
    # The median of a bootstrap resample (n runs drawn with replacement from
    # n) drawn straight from its distribution, with no resample built: what
    # makes an independent-sides bootstrap cost the same at 99 runs a side as
    # at 6, where building and sorting 2,000 resamples took 0.1 s for each
    # configuration of a report.
    #
    # Why it is the same distribution: a resample picks sorted index
    # floor(n U) for each of n uniforms U, and floor keeps their order, so its
    # k-th smallest value is sorted[floor(n U(k))], where U(k), the k-th
    # smallest of n uniforms, is Beta(k, n - k + 1) (David and Nagaraja,
    # Order Statistics, 2003, 2.2). For an even n the next one up is the
    # smallest of the n - k uniforms above U(k), which is U(k) plus
    # (1 - U(k)) times Beta(1, n - k).
    class ResampledMedian
      def initialize(sorted)
        @sorted = sorted
        @n = sorted.size
        @k = (@n + 1) / 2 # the lower median's rank, from 1
        @low_shape = Gamma.new(@k)
        @high_shape = Gamma.new(@n - @k + 1)
      end

      def draw(rng)
        a = @low_shape.draw(rng)
        lower = a / (a + @high_shape.draw(rng))
        return @sorted[index(lower)] if @n.odd?

        upper = lower + (1 - lower) * (1 - rng.rand**(1.0 / (@n - @k)))
        (@sorted[index(lower)] + @sorted[index(upper)]) / 2
      end

      private

      # A Float can round n U up to n.
      def index(uniform) = [(uniform * @n).floor, @n - 1].min

      # Gamma(shape) for shape >= 1 by Marsaglia and Tsang's squeeze
      # (ACM TOMS 26(3), 2000): about one normal and one uniform a draw.
      class Gamma
        def initialize(shape)
          @d = shape - 1.0 / 3
          @c = 1 / Math.sqrt(9 * @d)
        end

        def draw(rng)
          loop do
            x = Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)
            v = (1 + @c * x)**3
            next unless v.positive?

            u = rng.rand
            return @d * v if u < 1 - 0.0331 * x**4 || Math.log(u) < 0.5 * x * x + @d * (1 - v + Math.log(v))
          end
        end
      end
    end
  end
end
