# frozen_string_literal: true

require "json"

module Ractorbench
  module Reports
    # `history --format json`: what the text says, for a program (a CI job,
    # a dashboard): the files in order, each configuration's per-file
    # figures, its steps or why it was not judged.
    module Reports::HistoryJson
      module_function

      def render(view, _width = nil)
        JSON.pretty_generate({
          "order" => view.order, "alpha" => view.alpha, "min_change" => view.min_change, "tests" => view.tests,
          "files" => view.files.map { |f| {"file" => f.label, "ruby" => f.ruby_shown, "created_at" => f.created_at} },
          "configurations" => view.series.map { |s| series(s) }
        }) + "\n"
      end

      def series(s)
        {"configuration" => s.label, "refused" => s.refused,
         "points" => s.points.map { |p| p && point(p, s) },
         "steps" => s.steps.map { |step| {"from_file" => step.point.index + 1, "change" => step.change, "p_holm" => step.p_holm} }}
      end

      def point(p, s)
        summary = p.summary
        {"file" => p.index + 1, "runs" => summary.n, "median" => summary.median, "stddev" => summary.stddev,
         "counted" => s.counted.include?(p), "left_out" => p.left}
      end
    end
  end
end
