# frozen_string_literal: true

require_relative "canvas"
require_relative "scale"
require_relative "../parts/figure_cells"

module Ractorbench
  module Reports
    module Svg
      # Speedup against workers: a line per model, each point with its 95%
      # interval, and the ideal (speedup = workers) as a dashed diagonal.
      # 400 units wide, its legend under the plot (one line per model, the
      # name whole), so that it reads on a phone.
      class LineChart
        Series = Struct.new(:label, :color, :points, keyword_init: true) # points: [x, y, low, high]

        WIDTH = 400
        PLOT = 220
        LEFT = 44
        RIGHT = 14
        TOP = 14
        AXIS = 44
        LEGEND = 20

        attr_reader :title

        # tip: (series, x, y, low, high) -> a point's tooltip; by default a
        # speedup at a worker count.
        def initialize(title:, x_axis:, y_axis:, series:, ideal: true, tip: nil)
          @tip = tip || method(:speedup_tip)
          @title = title
          @x_axis = x_axis
          @y_axis = y_axis
          @series = series
          @ideal = ideal
        end

        def to_s
          xs = @series.flat_map { |s| s.points.map(&:first) }
          ys = @series.flat_map { |s| s.points.flat_map { |p| [p[1], p[3]] } }.compact
          top = [*ys, *(@ideal ? xs : [])].max.to_f
          pad = [(xs.max - xs.min) * 0.08, 0.5].max
          bottom = TOP + PLOT
          x = Scale.new(xs.min - pad, xs.max + pad, LEFT, WIDTH - RIGHT)
          y = Scale.nice(0, top * 1.05, bottom, TOP)
          svg = Canvas.new(WIDTH, bottom + AXIS + @series.size * LEGEND, label: @title)
          axes(svg, x, y, xs.uniq.sort, bottom)
          ideal(svg, x, y, xs.min, [xs.max, y.max].min) if @ideal
          @series.each_with_index { |s, i| draw(svg, x, y, s, i, bottom) }
          svg.to_s
        end

        private

        def axes(svg, x, y, worker_counts, bottom)
          y.ticks.each do |t|
            svg.line(LEFT, y.call(t), WIDTH - RIGHT, y.call(t), class: "grid")
            svg.text(LEFT - 6, y.call(t) + 4, Scale.label(t), class: "tick", text_anchor: "end")
          end
          worker_counts.each { |w| svg.text(x.call(w), bottom + 16, Scale.label(w), class: "tick", text_anchor: "middle") }
          svg.line(LEFT, bottom, WIDTH - RIGHT, bottom, class: "axis")
          svg.line(LEFT, TOP, LEFT, bottom, class: "axis")
          svg.text((LEFT + WIDTH - RIGHT) / 2, bottom + 34, @x_axis, class: "axis-label", text_anchor: "middle")
          svg.text(14, (TOP + bottom) / 2, @y_axis, class: "axis-label", text_anchor: "middle",
            transform: "rotate(-90 14 #{(TOP + bottom) / 2})")
        end

        def ideal(svg, x, y, from, to)
          svg.line(x.call(from), y.call(from), x.call(to), y.call(to), class: "reference", tooltip: "ideal: speedup = workers")
          svg.text(x.call(to) - 4, y.call(to) - 6, "ideal", class: "reference-label", text_anchor: "end")
        end

        def draw(svg, x, y, series, index, bottom)
          points = series.points.sort_by(&:first)
          svg.polyline(points.map { |p| [x.call(p[0]), y.call(p[1])] }, stroke: series.color, class: "series")
          points.each do |wx, wy, lo, hi|
            if lo && hi
              svg.line(x.call(wx), y.call(lo), x.call(wx), y.call(hi), stroke: series.color, class: "whisker")
            end
            svg.circle(x.call(wx), y.call(wy), 4, fill: series.color, class: "point", tooltip: @tip.call(series, wx, wy, lo, hi))
          end
          legend(svg, series, bottom + AXIS + index * LEGEND + 12)
        end

        def speedup_tip(series, wx, wy, lo, hi)
          "#{series.label}, #{Scale.label(wx)} workers: #{format("%.2f", wy)}×" +
            (lo ? " #{Parts::FigureCells.interval(lo, hi)}" : " (no interval: fewer than 6 runs)")
        end

        def legend(svg, series, ly)
          svg.line(LEFT, ly - 4, LEFT + 18, ly - 4, stroke: series.color, class: "series")
          svg.text(LEFT + 24, ly, series.label, class: "legend")
        end
      end
    end
  end
end
