# frozen_string_literal: true

require_relative "../../reports"
require_relative "../../base/console"
require_relative "../../base/plural"
require_relative "../parts/columns"
require_relative "../../plan/configuration"
require_relative "cells"
require_relative "../../analysis/comparison/cautions"
require_relative "../../analysis/comparison/differences"

module Ractorbench
  module Reports
    module Compare
      # `compare`'s default: for each side compared with the baseline, what
      # differs between them besides time (the work, the Ruby, the machine),
      # then a table laid out for the terminal's width (Parts::Columns: a
      # group of rows per configuration, each model's before and after with
      # its change and significance, the test's figures under the row when
      # they do not fit beside it), a geometric-mean row; then the cautions
      # and, when nothing could be judged, the INCONCLUSIVE line.
      module Text
        HEADINGS = ["configuration", "model", "A", "B", "change B/A", "95% CI", "test"].freeze

        module_function

        def render(comparison, cautions, width: nil)
          width ||= Console::DEFAULT_WIDTH
          tables = comparison.againsts.map do |ag|
            facts = Analysis::Comparison::Differences.of(comparison.baseline, ag.side)
            ["A = #{comparison.baseline.label}, B = #{ag.side.label}", *Analysis::Comparison::Differences.lines(facts),
              table(comparison, ag, width)].join("\n")
          end
          [*tables, Cells.legend(comparison), *cautions.map { |c| "WARNING: #{c}" },
            Analysis::Comparison::Cautions.inconclusive(comparison)].compact.join("\n") + "\n"
        end

        def table(comparison, ag, width)
          columns = Parts::Columns.new(HEADINGS, right: [2, 3, 4, 5], spill: true)
          ag.rows.chunk_while { |a, b| configuration(comparison, a) == configuration(comparison, b) }.each do |rows|
            columns.group(configuration(comparison, rows.first), rows.map { |r| row(comparison, r) })
          end
          if (g = ag.geomean)
            columns.group("geomean", [[Plural.count(g.count, "config"), Cells.duration(g.a), Cells.duration(g.b),
              Cells.percent(g.ratio - 1), g.low ? "[#{Cells.percent(g.low - 1)}, #{Cells.percent(g.high - 1)}]" : "-", ""]])
          end
          columns.to_s(width)
        end

        # "nap W=2 M=5 ruby": a configuration but its model.
        def configuration(comparison, r)
          key = comparison.named(r.key)
          [Plan::Configuration.title(key.workload, key.params), "W=#{key.workers}", "M=#{key.messages}", key.ruby].compact.join(" ")
        end

        def row(comparison, r)
          judged = !r.disturbed?
          [comparison.named(r.key).model.to_s, Cells.median(r.a_ci), Cells.median(r.b_ci), judged ? Cells.change(r) : "inconclusive",
            judged ? Cells.interval(r.ratio_ci) : "-", test(r, judged)]
        end

        # The test's figures, or why there is none.
        def test(r, judged)
          n = "n #{r.test.n1}+#{r.test.n2}"
          return "p #{Cells.p(r.test.p)}, Holm p #{Cells.p(r.p_holm)}, #{n}" if judged

          counts = Cells.disturbed_counts(r)
          "#{counts ? "#{counts} disturbed" : "most runs of a side disturbed"}: not tested; #{n}"
        end
      end

      Reports.register("text", Text, of: :comparison, terminal: true, width: true, wrap: true, default: true)
    end
  end
end
