# frozen_string_literal: true

require "erb"
require_relative "speedup_cells"
require_relative "text"
require_relative "../html"
require_relative "../html/charts"
require_relative "../svg/interval_bars"
require_relative "../parts/units"
require_relative "../../reports"

module Ractorbench
  module Reports
    module Sides
      # `report --by ruby --format html -o FILE`: a self-contained page (the
      # report's CSS, inline SVG, no script): per workload and size, a chart
      # of each model's speedup on each Ruby (or machine) with its interval,
      # then the table of every figure. Names are escaped: h() here,
      # Svg::Canvas in the charts.
      module Html
        TEMPLATE = File.join(__dir__, "page.html.erb")
        DISTURBED = "#b0b0b0" # the bar of a cell too disturbed to give a verdict

        module_function

        def render(sbs) = View.new(sbs).render

        # What the template can call.
        class View
          include ERB::Util

          attr_reader :sbs

          def initialize(sbs)
            @sbs = sbs
            @colours = sbs.labels.each_with_index.to_h { |l, i| [l, Reports::Html::Charts::PALETTE[i % Reports::Html::Charts::PALETTE.size]] }
          end

          def render = ERB.new(File.read(TEMPLATE), trim_mode: "-").result(binding)

          def style = Reports::Html.style

          def colour(label) = @colours.fetch(label)

          def cell(panel, line, i) = SpeedupCells.cell(panel, line, i)

          def cautions = sbs.cautions

          def inconclusive = sbs.inconclusive

          def panel_title(panel) = SpeedupCells.panel_title(panel)

          def legend = Text.legend(sbs)

          def command
            Array(sbs.sides.first.header.command).join
          end

          # A chart per panel: speedups where the panel has a serial, else times.
          def chart(panel)
            bars = panel.lines.reject(&:baseline?).flat_map do |line|
              line.cells.each_with_index.map { |row, i| [line.model, sbs.labels[i], row, bar_colour(line, i), cell(panel, line, i)] }
            end
            speedups = bars.any? { |_, _, row, _| row&.speedup }
            return time_chart(panel, bars) unless speedups

            Svg::IntervalBars.new(title: "#{panel_title(panel)}: speedup over serial on each #{sbs.by}",
              axis: "speedup over serial (×, median ratio; whisker: 95% interval)",
              bars: bars.map { |model, label, row, colour, text| speedup_bar(model, label, row, colour, text) },
              references: [Svg::IntervalBars::Reference.new(value: 1.0, label: "1× serial"),
                Svg::IntervalBars::Reference.new(value: panel.workers.to_f, label: "W=#{panel.workers}")])
          end

          private

          # A cell too disturbed to give a verdict (Line#disturbed) is drawn
          # grey, its text saying how many of its runs were disturbed.
          def bar_colour(line, i) = line.disturbed(i) ? DISTURBED : colour(sbs.labels[i])

          def speedup_bar(model, label, row, colour, text)
            return Svg::IntervalBars::Bar.new(label: model, detail: label, value: nil, text: text) unless row&.speedup

            ci = row.speedup_ci
            Svg::IntervalBars::Bar.new(label: model, detail: label, value: row.speedup, low: ci&.low, high: ci&.high,
              color: colour, text: text, tooltip: "#{model} on #{label}: #{text}")
          end

          def time_chart(panel, bars)
            largest = bars.filter_map { |_, _, row, _| row&.messages_time&.max }.max.to_f
            scale, unit = if largest >= 1 then [1, "seconds"]
            elsif largest >= 1e-3 then [1e3, "milliseconds"]
            else [1e6, "microseconds"]
            end
            Svg::IntervalBars.new(title: "#{panel_title(panel)}: messages-only time on each #{sbs.by} (no serial to divide by)",
              axis: "#{unit} (median; whisker: 95% interval of the median)",
              bars: bars.map { |model, label, row, colour, text| time_bar(model, label, row, scale, colour, text) })
          end

          def time_bar(model, label, row, scale, colour, text)
            return Svg::IntervalBars::Bar.new(label: model, detail: label, value: nil, text: text) unless row && row.samples.to_i.positive? && !row.unsupported

            ci = row.messages_time_ci
            Svg::IntervalBars::Bar.new(label: model, detail: label, value: row.messages_time.median * scale,
              low: ci&.low&.*(scale), high: ci&.high&.*(scale), color: colour, text: text)
          end
        end
      end

      Reports.register("html", Html, of: :sides, extension: "html", browser: true)
    end
  end
end
