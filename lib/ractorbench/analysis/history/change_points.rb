# frozen_string_literal: true

require_relative "../../stats/mann_whitney"
require_relative "../../stats/holm"
require_relative "../../stats/sorted"

module Ractorbench
  class Analysis
    module Analysis::History
      # Where a series of points steps, by binary segmentation confirmed by
      # tests:
      # 1. a segment of points (at first, the whole series) is split where
      #    the two sides' log medians have the least squared deviation from
      #    their sides' means (the split that explains most of the spread);
      # 2. the split is tested: Mann-Whitney over the runs of every point on
      #    the left against those on the right (two-sided);
      # 3. while that p-value is below alpha, each side is segmented again;
      # 4. over every test of every configuration (`judge`), Holm's
      #    correction: a step is reported when its adjusted p-value is below
      #    alpha, every split above it was reported too, and the two sides'
      #    medians differ by min_change or more.
      # A point is a file's undisturbed runs of one configuration.
      module ChangePoints
        # A split tested: the points before `at` against those from it.
        Test = Struct.new(:series, :at, :p, :change, :parent, :p_holm, keyword_init: true) do
          def reported?(alpha, min_change)
            p_holm && p_holm < alpha && change.abs >= min_change && (parent.nil? || parent.reported?(alpha, min_change))
          end
        end

        module_function

        # series: {key => [runs of each point, in order]}; every test made,
        # Holm-adjusted together.
        def judge(series, alpha:)
          tests = series.flat_map { |key, points| segment(key, points, 0, points.size - 1, alpha, nil) }
          Stats::Holm.adjust(tests.map(&:p)).each_with_index { |p, i| tests[i].p_holm = p }
          tests
        end

        def segment(key, points, low, high, alpha, parent)
          return [] if high <= low

          at = best_split(points, low, high)
          before = points[low...at].flatten
          after = points[at..high].flatten
          p = Stats::MannWhitney.test(after, before).p
          test = Test.new(series: key, at: at, p: p, change: median(after) / median(before) - 1, parent: parent)
          return [test] unless p && p < alpha

          [test, *segment(key, points, low, at - 1, alpha, test), *segment(key, points, at, high, alpha, test)]
        end

        # The first index of the right side, low < at <= high.
        def best_split(points, low, high)
          logs = points[low..high].map { |runs| Math.log(median(runs)) }
          (1...logs.size).min_by { |k| [squared_deviation(logs[0...k]) + squared_deviation(logs[k..]), k] } + low
        end

        def squared_deviation(values)
          mean = values.sum / values.size
          values.sum { |v| (v - mean)**2 }
        end

        def median(values) = Stats.median_of_sorted(Stats.sorted(values))
      end
    end
  end
end
