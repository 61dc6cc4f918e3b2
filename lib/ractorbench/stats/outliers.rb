# frozen_string_literal: true

require_relative "sorted"

module Ractorbench
  module Stats
    # Outliers by the modified z-score of Iglewicz and Hoaglin (1993):
    #   M = 0.6745 (x - median) / MAD,  MAD = median |x - median|,
    # an outlier when |M| > 3.5. Median and MAD are themselves robust, so one
    # wild run cannot hide itself by inflating the spread, as it does with
    # the mean and standard deviation. hyperfine uses the same score but flags
    # only beyond about 10 standard deviations; 3.5 is the authors' advice.
    module Outliers
      THRESHOLD = 3.5
      # 0.6745 is the 75th percentile of the standard normal: it makes the
      # MAD comparable to a standard deviation for normal data.
      SCALE = 0.6745

      module_function

      # One score per value, in the order given. When the MAD is 0 (half the
      # values or more are identical) any value off the median scores
      # infinite, as in hyperfine: seven runs of 10 and one of 100 has an outlier.
      # median: the values' median when the caller has it already.
      # mad: the values' MAD when the caller has it already.
      def modified_z_scores(values, median: nil, mad: nil)
        values = values.map(&:to_f)
        med = median || median(values)
        mad ||= values.empty? ? 0.0 : median(values.map { |v| (v - med).abs })
        return values.map { |v| (v == med) ? 0.0 : (v - med) * Float::INFINITY } if mad.zero?

        values.map { |v| SCALE * (v - med) / mad }
      end

      # Whether no value is an outlier, from the values sorted: the scores
      # furthest out are those of the two ends, so a sample of a thousand
      # runs is not scored run by run to find that none stands out.
      def none?(sorted, threshold: THRESHOLD, median: nil)
        return true if sorted.empty?

        med = median || median(sorted)
        mad = mad_of_sorted(sorted, med)
        modified_z_scores([sorted.first, sorted.last], median: med, mad: mad).all? { |score| score.abs <= threshold }
      end

      # Indices of the outliers.
      def indices(values, threshold: THRESHOLD, median: nil)
        scores = modified_z_scores(values, median: median)
        scores.each_index.select { |i| scores[i].abs > threshold }
      end

      def median(values) = Stats.median_of_sorted(values.sort)

      # The MAD of a sorted sample about med, without sorting the deviations:
      # those of the values below med, read down from it, and those of the
      # rest, read up, are each in order already, so the middle ones are
      # found by bisection (the same figure as sorting every deviation).
      def mad_of_sorted(sorted, med)
        below = sorted.bsearch_index { |v| v >= med } || sorted.size
        low = ->(k) { (sorted[below - 1 - k] - med).abs }
        high = ->(k) { (sorted[below + k] - med).abs }
        kth = ->(k) { kth_of_two(low, below, high, sorted.size - below, k) }
        n = sorted.size
        n.odd? ? kth.call(n / 2) : (kth.call(n / 2 - 1) + kth.call(n / 2)) / 2.0
      end

      # The k-th smallest (from 0) of two ascending sequences a and b of m
      # and n values, read by index: take i from a and k + 1 - i from b, i
      # the least for which a's next is no smaller than b's last taken.
      def kth_of_two(a, m, b, n, k)
        count = k + 1
        lo = [0, count - n].max
        hi = [count, m].min
        while lo < hi
          i = (lo + hi) / 2
          if a.call(i) < b.call(count - i - 1)
            lo = i + 1
          else
            hi = i
          end
        end
        taken = count - lo
        [(a.call(lo - 1) if lo.positive?), (b.call(taken - 1) if taken.positive?)].compact.max
      end
    end
  end
end
