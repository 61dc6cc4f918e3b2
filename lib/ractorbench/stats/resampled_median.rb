# frozen_string_literal: true

module Ractorbench
  module Stats
    # The median of a bootstrap resample (n runs drawn with replacement from
    # n) drawn straight from its distribution, with no resample built: what
    # makes an independent-sides bootstrap cost the same at 99 runs a side as
    # at 6, where building and sorting 2,000 resamples took 0.1 s for each
    # configuration of a report.
    #
    # Why it is the same distribution: a resample's k-th smallest value is
    # sorted[A], A the k-th smallest of n picks uniform on 0...n, and A <= a
    # when at least k picks fall at or below a: a Binomial(n, (a + 1) / n)
    # count, so P(A <= a) is that count's upper tail. A is drawn by inverting
    # that distribution. For an even n the median also needs B, the next
    # pick up: it is A again when more than k picks fall at or below A;
    # otherwise the n - k picks above A are uniform on A + 1...n and B is
    # the smallest of them.
    class ResampledMedian
      def initialize(sorted)
        @sorted = sorted
        @n = sorted.size
        @picks = Picks.of(@n)
      end

      def draw(rng)
        a = @picks.lower(rng.rand)
        return @sorted[a] if @n.odd?

        (@sorted[a] + @sorted[@picks.upper(a, rng)]) / 2
      end

      # Where the median's picks fall among n sorted runs: it depends on n
      # alone, so it is worked out once for each n (a report of a thousand
      # configurations of 97 to 99 runs a side works it out three times).
      class Picks
        def self.of(n)
          @of ||= {}
          @of[n] ||= new(n)
        end

        def initialize(n)
          @n = n
          @k = (n + 1) / 2 # the lower median's rank, from 1
          @log_choose_k = log_choose(n, @k)
          @cdf = lower_cdf
          # Where to start looking for each n-th of the probability: a draw
          # then takes a step or two, not a search.
          @guide = Array.new(n) { |j| @cdf.bsearch_index { |f| f > j.fdiv(n) } }
          @same = (0...n).map { |a| repeated_chance(a) } if n.even?
          freeze
        end

        # A, for a uniform u: the first a with P(A <= a) > u.
        def lower(u)
          a = @guide[(u * @n).floor]
          a += 1 while @cdf[a] <= u
          a
        end

        # B, given A = a.
        def upper(a, rng) = (rng.rand < @same[a]) ? a : next_above(a, rng)

        private

        # P(A <= a) for each a; made non-decreasing and ending at 1, so that a
        # rounding error in a far tail can never send the search astray.
        def lower_cdf
          high = 0.0
          cdf = (0...@n).map { |a| high = upper_tail((a + 1).fdiv(@n)).clamp(high, 1.0) }
          cdf[-1] = 1.0
          cdf
        end

        # P(Binomial(n, p) >= k), summed outwards from the mode (where the
        # terms are largest, so none underflows before it matters) until the
        # terms no longer change the sum.
        def upper_tail(p)
          return 1.0 if p >= 1.0

          mode = ((@n + 1) * p).floor.clamp(@k, @n)
          at_mode = Math.exp(log_choose(@n, mode) + mode * Math.log(p) + (@n - mode) * Math.log(1 - p))
          odds = p / (1 - p)
          sum = term = at_mode
          (mode + 1..@n).each do |j|
            term *= (@n - j + 1).fdiv(j) * odds
            sum += term
            break if term < sum * 1e-17
          end
          term = at_mode
          (mode - 1).downto(@k) do |j|
            term *= (j + 1).fdiv(@n - j) / odds
            sum += term
            break if term < sum * 1e-17
          end
          sum
        end

        # Given A = a, the chance that B = a too: one less the chance that
        # exactly k picks fall at or below a, at least one of them at a.
        def repeated_chance(a)
          at_a = @cdf[a] - ((a > 0) ? @cdf[a - 1] : 0.0)
          return 1.0 if at_a <= 0.0 || a == @n - 1

          none_between = Math.exp(@log_choose_k + (@n - @k) * Math.log((@n - 1 - a).fdiv(@n)))
          exactly_k = none_between * ((a + 1).fdiv(@n)**@k - a.fdiv(@n)**@k)
          (1 - exactly_k / at_a).clamp(0.0, 1.0)
        end

        # The smallest of the n - k picks uniform on a + 1...n.
        def next_above(a, rng)
          span = @n - 1 - a
          [a + 1 + (span * (1 - rng.rand**(1.0 / (@n - @k)))).floor, @n - 1].min
        end

        def log_choose(n, k) = Math.lgamma(n + 1).first - Math.lgamma(k + 1).first - Math.lgamma(n - k + 1).first
      end
    end
  end
end
