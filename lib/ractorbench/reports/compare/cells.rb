# frozen_string_literal: true

require_relative "../parts/units"
require_relative "../parts/figure_cells"
require_relative "../parts/disturbance"
require_relative "../../stats/bootstrap"
require_relative "../../base/plural"

module Ractorbench
  module Reports
    module Compare
      # The text of each cell of a comparison, shared by the text and
      # Markdown formats so that they cannot disagree.
      module Cells
        HEADINGS = ["workload", "model", "W", "M", "params", "ruby"].freeze
        FIELD_HEADINGS = HEADINGS.zip(%w[workload model workers messages params ruby]).to_h.invert.freeze

        module_function

        # The key columns worth showing: params only when some configuration has any.
        def key_columns(comparison)
          comparison.key_fields.each_index.select do |i|
            comparison.key_fields[i] != "params" || comparison.rows.any? { |r| r.key[i] }
          end
        end

        def headings(comparison, against)
          key_columns(comparison).map { |i| FIELD_HEADINGS.fetch(comparison.key_fields[i]) } +
            ["A: #{comparison.baseline.label}", "B: #{against.side.label}", "change B/A", "95% CI", "p", "Holm p", "n"]
        end

        # A configuration too disturbed to judge shows its medians (and n)
        # but no change, interval or p: nothing is claimed from it.
        def row(comparison, r)
          judged = !r.disturbed?
          r.key.values_at(*key_columns(comparison)).map(&:to_s) + [median(r.a_ci), median(r.b_ci), change(r),
            judged ? interval(r.ratio_ci) : "-", p((r.test.p if judged)), p(r.p_holm), "#{r.test.n1}+#{r.test.n2}"]
        end

        def geomean(comparison, g)
          blanks = Array.new(key_columns(comparison).size - 1, "")
          ["geomean"] + blanks + [duration(g.a), duration(g.b), percent(g.ratio - 1),
            g.low ? "[#{percent(g.low - 1)}, #{percent(g.high - 1)}]" : "-", "", "", Plural.count(g.count, "config")]
        end

        # The median and benchstat's "± x%", the interval's half-width; or
        # the sample count when there are too few for an interval.
        def median(ci)
          return "-" if ci.median.nil?
          return "#{duration(ci.median)} (n=#{ci.n})" unless ci.known?

          width = ci.relative_half_width * 100
          "#{duration(ci.median)} ±#{format((width < 1) ? "%.1f" : "%.0f", width)}%"
        end

        def change(r)
          case r.verdict
          when :slower, :faster then percent(r.change)
          when :same then "~ (#{percent(r.change)})"
          when :too_few then "? (#{percent(r.change)})"
          when :disturbed then disturbed(r)
          else "?"
          end
        end

        # "inconclusive: B 8 of 10 disturbed"; just "inconclusive" where the
        # configuration's runs were fine but most of its side's were not.
        def disturbed(r)
          counts = disturbed_counts(r)
          counts ? "inconclusive: #{counts} disturbed" : "inconclusive"
        end

        # "A 8 of 10, B 3 of 10": each side's disturbed runs in this
        # configuration, or nil when it was the whole side that was busy.
        def disturbed_counts(r)
          counts = r.disturbed_sides.map { |side, g| "#{side} #{Parts::Disturbance.counted(g)}" }
          counts.empty? ? nil : counts.join(", ")
        end

        def interval(ci)
          return "n<#{Stats::Bootstrap::MIN_SAMPLES}" unless ci.known?

          Parts::FigureCells.interval(ci.low, ci.high) { |end_| percent(end_ - 1) }
        end

        def p(value)
          return "-" if value.nil?

          (value < 0.001) ? "<0.001" : format("%.3f", value)
        end

        def percent(fraction)
          fraction.nil? ? "-" : format("%+.1f%%", fraction * 100)
        end

        def duration(seconds) = Reports::Parts::Units.duration(seconds)

        def legend(comparison)
          "#{comparison.metric_name}: median ± half-width of its 95% interval; change B/A - 1 with a 95% bootstrap " \
            "interval; Mann-Whitney U p, Holm-adjusted over #{Plural.count(comparison.comparisons, "comparison")}; " \
            "~ = no detectable change at alpha #{comparison.alpha}; ? = too few runs to tell" +
            (comparison.disturbed_rows.empty? ? "" : "; inconclusive = most runs of side A or B disturbed (by other " \
              "programs or steal) in this configuration or in the whole side, so not tested")
        end
      end
    end
  end
end
