# frozen_string_literal: true

require "erb"
require_relative "text"
require_relative "../html"
require_relative "../html/charts"
require_relative "../svg/line_chart"
require_relative "../../stats/median_interval"

module Ractorbench
  module Reports
    # `history --format html -o FILE`: a self-contained page (the report's
    # CSS, inline SVG, no script): the text's files and method, then a chart
    # per configuration (each file's median with its 95% interval, where
    # there are runs enough for one) with its steps under it. Names are
    # escaped: h() here, Svg::Canvas in the charts.
    module Reports::HistoryHtml
      TEMPLATE = File.join(__dir__, "page.html.erb")

      module_function

      def render(view, _width = nil) = View.new(view).render

      # What the template can call.
      class View
        include ERB::Util

        attr_reader :history

        def initialize(history)
          @history = history
        end

        def render = ERB.new(File.read(TEMPLATE), trim_mode: "-").result(binding)

        def style = Reports::Html.style

        def method_text = HistoryText.method_text(history)

        def closing = HistoryText.closing(history, nil).reject(&:empty?)

        def steps(series) = HistoryText.steps(series)

        def sparkline(series) = HistoryText.sparkline(series)

        def chart(series)
          points = series.counted.map do |point|
            interval = Stats::MedianInterval.for(point.runs)
            [point.index + 1, *[point.summary.median, interval.low, interval.high].map { |v| v && v * 1000 }]
          end
          Svg::LineChart.new(title: series.label, x_axis: "file (oldest to newest)", y_axis: "#{history.metric_title} ms",
            series: [Svg::LineChart::Series.new(label: "median, 95% interval", color: Html::Charts::PALETTE.first, points: points)],
            ideal: false, tip: method(:tip)).to_s
        end

        def tip(_series, file, median, low, high)
          range = low ? format(" [%.3f, %.3f]", low, high) : " (no interval: fewer than 6 runs)"
          format("file %d: %.3f ms%s", file, median, range)
        end
      end
    end
  end
end
