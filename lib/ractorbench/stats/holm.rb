# frozen_string_literal: true

module Ractorbench
  module Stats
    # Holm's step-down correction for many comparisons (Holm 1979), as R's
    # p.adjust(p, "holm"): sorted ascending, the i-th smallest of m p-values
    # is multiplied by (m - i + 1), kept non-decreasing and capped at 1.
    # Comparing 20 configurations at alpha 0.05 without it would call about
    # one unchanged configuration "changed" by chance.
    module Holm
      module_function

      # Adjusted p-values in the order given; nil entries stay nil and do
      # not count as comparisons.
      def adjust(pvalues)
        present = pvalues.each_index.reject { |i| pvalues[i].nil? }
        m = present.size
        adjusted = Array.new(pvalues.size)
        running = 0.0
        present.sort_by { |i| [pvalues[i], i] }.each_with_index do |i, rank|
          running = ((m - rank) * pvalues[i]).clamp(running, 1.0)
          adjusted[i] = running
        end
        adjusted
      end
    end
  end
end
