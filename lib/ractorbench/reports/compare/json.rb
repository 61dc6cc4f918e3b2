# frozen_string_literal: true

require "json"
require_relative "../../reports"
require_relative "../../analysis/comparison/cautions"
require_relative "../../analysis/comparison/differences"
require_relative "../parts/disturbance"

module Ractorbench
  module Reports
    module Compare
      # `compare --format json`: every figure behind the verdicts. Disturbed
      # runs: each side's count ("sides"), each configuration's per side
      # ("disturbed", verdict "disturbed" when too many to judge), and
      # "inconclusive" (null, or why nothing could be judged: exit code 3).
      module Json
        DISTURBED = "too many disturbed runs on a side to judge"

        module_function

        def render(comparison, cautions)
          JSON.pretty_generate(
            "metric" => comparison.metric, "alpha" => comparison.alpha, "baseline" => comparison.baseline.label,
            "key" => comparison.key_fields, "comparisons" => comparison.comparisons,
            "inconclusive" => Parts::Disturbance.inconclusive(Analysis::Comparison::Cautions.inconclusive(comparison)),
            "sides" => [comparison.baseline, *comparison.againsts.map(&:side)].map { |side| {"label" => side.label, **Parts::Disturbance.side(side)} },
            "against" => comparison.againsts.map { |ag| against(ag, comparison.baseline) }, "warnings" => cautions
          ) + "\n"
        end

        def against(ag, baseline)
          facts = Analysis::Comparison::Differences.of(baseline, ag.side)
          {"label" => ag.side.label, "rows" => ag.rows.map { |r| row(r) },
           "differences" => facts.map { |f| {"name" => f.name, "baseline" => f.a, "this" => f.b, "differs" => f.differs?} },
           "only_in_baseline" => ag.only_a, "only_in_this" => ag.only_b,
           "geomean" => ag.geomean&.to_h&.transform_keys(&:to_s)}
        end

        # A configuration too disturbed to judge keeps its medians, ratio
        # and change (descriptive) but no interval, U or p: nothing is inferred.
        def row(r)
          judged = !r.disturbed?
          ci = r.ratio_ci
          {"key" => r.key, "a" => summary(r.a_ci), "b" => summary(r.b_ci), "ratio" => r.ratio,
           "change" => r.change, "ratio_ci" => {"low" => (ci.low if judged), "high" => (ci.high if judged),
                                                "level" => ci.level, "paired" => ci.paired,
                                                "reason" => judged ? ci.reason : DISTURBED},
           "u" => (r.test.u if judged), "p" => (r.test.p if judged), "p_method" => r.test.method.to_s, "p_holm" => r.p_holm,
           "verdict" => r.verdict.to_s, "disturbed" => {"a" => Parts::Disturbance.group(r.a), "b" => Parts::Disturbance.group(r.b)}}
        end

        def summary(ci)
          {"median" => ci.median, "low" => ci.low, "high" => ci.high, "samples" => ci.n, "reason" => ci.reason}
        end
      end

      Reports.register("json", Json, of: :comparison, extension: "json")
    end
  end
end
