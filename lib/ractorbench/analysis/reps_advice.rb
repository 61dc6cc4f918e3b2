# frozen_string_literal: true

require_relative "../stats/median_interval"
require_relative "../stats/mann_whitney"

module Ractorbench
  class Analysis
    # How many runs of each configuration to ask for, said the same way by
    # every format and command: enough for a 95% interval of a median and a
    # speedup, and for a lead to show in a Mann-Whitney test once Holm's
    # correction has spread alpha over `tests` comparisons.
    module RepsAdvice
      module_function

      def needed(tests = 1, alpha: 0.05)
        held = (2..100).find { |n| Stats::MannWhitney.min_p(n, n) * [tests, 1].max < alpha } || 100
        [Stats::MedianInterval.min_samples, held].max
      end

      def text(tests = 1, alpha: 0.05) = "--reps #{needed(tests, alpha: alpha)} or more"
    end
  end
end
