# frozen_string_literal: true

require "json"
require_relative "../../reports"

module Ractorbench
  module Reports
    module Compare
      # `compare --format json`: every figure behind the verdicts.
      module Json
        module_function

        def render(comparison, cautions)
          JSON.pretty_generate(
            "metric" => comparison.metric, "alpha" => comparison.alpha, "baseline" => comparison.baseline.label,
            "key" => comparison.key_fields, "comparisons" => comparison.comparisons,
            "against" => comparison.againsts.map { |ag| against(ag) }, "warnings" => cautions
          ) + "\n"
        end

        def against(ag)
          {"label" => ag.side.label, "rows" => ag.rows.map { |r| row(r) },
           "only_in_baseline" => ag.only_a, "only_in_this" => ag.only_b,
           "geomean" => ag.geomean&.to_h&.transform_keys(&:to_s)}
        end

        def row(r)
          {"key" => r.key, "a" => summary(r.a_ci), "b" => summary(r.b_ci), "ratio" => r.ratio,
           "change" => r.change, "ratio_ci" => {"low" => r.ratio_ci.low, "high" => r.ratio_ci.high,
                                                "level" => r.ratio_ci.level, "paired" => r.ratio_ci.paired,
                                                "reason" => r.ratio_ci.reason},
           "u" => r.test.u, "p" => r.test.p, "p_method" => r.test.method.to_s, "p_holm" => r.p_holm,
           "verdict" => r.verdict.to_s}
        end

        def summary(ci)
          {"median" => ci.median, "low" => ci.low, "high" => ci.high, "samples" => ci.n, "reason" => ci.reason}
        end
      end

      Reports.register("json", Json, of: :comparison)
    end
  end
end
