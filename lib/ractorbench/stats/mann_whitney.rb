# frozen_string_literal: true

module Ractorbench
  module Stats
    # The two-sided Mann-Whitney U (Wilcoxon rank-sum) test: do two samples
    # come from distributions with the same location? It assumes nothing about
    # their shape, which suits run times (skewed, with a long right tail).
    #
    # Computed exactly as R's wilcox.test(x, y) does by default, so R checks it:
    # - exact p-value (the null distribution of U counted by the Gaussian
    #   binomial coefficient) when both samples have fewer than 50 values and
    #   no value is tied;
    # - otherwise the normal approximation with R's tie correction of the
    #   variance and a continuity correction of 0.5.
    module MannWhitney
      EXACT_BELOW = 50

      Result = Struct.new(:u, :p, :method, :n1, :n2, keyword_init: true)

      module_function

      # U is x's statistic: the number of pairs (xi, yj) with xi > yj, ties
      # counting a half (R's W).
      def test(x, y)
        x = x.map(&:to_f)
        y = y.map(&:to_f)
        m = x.size
        n = y.size
        return Result.new(u: nil, p: nil, method: :none, n1: m, n2: n) if m.zero? || n.zero?

        # Ranks by value, counted in C (tally, sort of the distinct values):
        # for two samples of a thousand runs, ranking them one by one was
        # most of an HTML report's time.
        counts = (x + y).tally
        rank = average_rank_of(counts)
        u = x.sum { |v| rank[v] } - m * (m + 1) / 2.0
        if m < EXACT_BELOW && n < EXACT_BELOW && counts.size == m + n
          Result.new(u: u, p: exact_p(u.round, m, n), method: :exact, n1: m, n2: n)
        else
          Result.new(u: u, p: normal_p(u, m, n, counts.each_value.sum { |t| t**3 - t }), method: :normal, n1: m, n2: n)
        end
      end

      # The smallest two-sided p-value samples of these sizes can give (when
      # they do not overlap at all): below alpha, or the test can never see a
      # difference. 2 / C(m+n, m); for 3 + 3 runs it is 0.1.
      def min_p(m, n)
        return 1.0 if m.zero? || n.zero?

        [2.0 / binomial(m + n, m), 1.0].min
      end

      def exact_p(u, m, n)
        counts = u_counts(m, n)
        total = counts.sum
        tail = if u > m * n / 2.0
          counts[u..].sum # P(U >= u)
        else
          counts[0..u].sum # P(U <= u)
        end
        [2.0 * tail / total, 1.0].min
      end

      # counts[u] = how many of the C(m+n, m) equally likely orderings give
      # U = u: the coefficients of the Gaussian binomial [m+n choose m] in q,
      # built as prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i).
      def u_counts(m, n)
        size = m * n + m + 1
        c = Array.new(size, 0)
        c[0] = 1
        (1..m).each do |i|
          (size - 1).downto(n + i) { |k| c[k] -= c[k - n - i] }
          (i...size).each { |k| c[k] += c[k - i] }
        end
        c.first(m * n + 1)
      end

      # ties: the sum of t^3 - t over the sizes t of tied groups.
      def normal_p(u, m, n, ties)
        variance = (m * n / 12.0) * ((m + n + 1) - ties.to_f / ((m + n) * (m + n - 1)))
        return 1.0 unless variance.positive? # every value equal: nothing to tell apart

        z = u - m * n / 2.0
        z = (z - (z <=> 0) * 0.5) / Math.sqrt(variance)
        [2 * [normal_cdf(z), normal_cdf(-z)].min, 1.0].min
      end

      def normal_cdf(z)
        0.5 * Math.erfc(-z / Math.sqrt(2))
      end

      # 1-based ranks, tied values sharing the mean of their ranks.
      def average_ranks(values)
        rank = average_rank_of(values.tally)
        values.map { |v| rank[v] }
      end

      # Each distinct value's 1-based rank, from how often each occurs.
      def average_rank_of(counts)
        below = 0
        counts.keys.sort!.to_h do |v|
          t = counts[v]
          below += t
          [v, below - (t - 1) / 2.0]
        end
      end

      def binomial(n, k)
        (1..k).reduce(1) { |acc, i| acc * (n - k + i) / i }
      end
    end
  end
end
