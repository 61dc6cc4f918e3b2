# frozen_string_literal: true

require_relative "canvas"
require_relative "scale"

module Ractorbench
  module Reports
    module Svg
      # Speedup against workers: a line per model, each point with its 95%
      # interval, and the ideal (speedup = workers) as a dashed diagonal.
      class LineChart
        Series = Struct.new(:label, :color, :points, keyword_init: true) # points: [x, y, low, high]

        WIDTH = 560
        HEIGHT = 300
        LEFT = 48
        RIGHT = 170
        TOP = 30
        BOTTOM = 40
        LEGEND_CHARS = 20

        def initialize(title:, x_axis:, y_axis:, series:, ideal: true)
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
          x = Scale.new(xs.min - pad, xs.max + pad, LEFT, WIDTH - RIGHT)
          y = Scale.nice(0, top * 1.05, HEIGHT - BOTTOM, TOP)
          svg = Canvas.new(WIDTH, HEIGHT, label: @title)
          svg.text(4, 16, @title, class: "chart-title")
          axes(svg, x, y, xs.uniq.sort)
          ideal(svg, x, y, xs.min, [xs.max, y.max].min) if @ideal
          @series.each_with_index { |s, i| draw(svg, x, y, s, i) }
          svg.to_s
        end

        private

        def axes(svg, x, y, worker_counts)
          y.ticks.each do |t|
            svg.line(LEFT, y.call(t), WIDTH - RIGHT, y.call(t), class: "grid")
            svg.text(LEFT - 6, y.call(t) + 4, Scale.label(t), class: "tick", text_anchor: "end")
          end
          worker_counts.each { |w| svg.text(x.call(w), HEIGHT - BOTTOM + 14, Scale.label(w), class: "tick", text_anchor: "middle") }
          svg.line(LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM, class: "axis")
          svg.line(LEFT, TOP, LEFT, HEIGHT - BOTTOM, class: "axis")
          svg.text((LEFT + WIDTH - RIGHT) / 2, HEIGHT - 6, @x_axis, class: "axis-label", text_anchor: "middle")
          svg.text(12, (TOP + HEIGHT - BOTTOM) / 2, @y_axis, class: "axis-label", text_anchor: "middle",
            transform: "rotate(-90 12 #{(TOP + HEIGHT - BOTTOM) / 2})")
        end

        def ideal(svg, x, y, from, to)
          svg.line(x.call(from), y.call(from), x.call(to), y.call(to), class: "reference", tooltip: "ideal: speedup = workers")
          svg.text(x.call(to) - 4, y.call(to) - 6, "ideal", class: "reference-label", text_anchor: "end")
        end

        def draw(svg, x, y, series, index)
          points = series.points.sort_by(&:first)
          svg.polyline(points.map { |p| [x.call(p[0]), y.call(p[1])] }, stroke: series.color, class: "series")
          points.each do |wx, wy, lo, hi|
            if lo && hi
              svg.line(x.call(wx), y.call(lo), x.call(wx), y.call(hi), stroke: series.color, class: "whisker")
            end
            tip = "#{series.label}, #{Scale.label(wx)} workers: #{format("%.2f", wy)}×" +
              (lo ? format(" [%.2f, %.2f]", lo, hi) : " (no interval: fewer than 6 runs)")
            svg.circle(x.call(wx), y.call(wy), 4, fill: series.color, class: "point", tooltip: tip)
          end
          legend(svg, series, index)
        end

        def legend(svg, series, index)
          ly = TOP + 8 + index * 18
          lx = WIDTH - RIGHT + 14
          svg.line(lx, ly, lx + 18, ly, stroke: series.color, class: "series")
          name = (series.label.length > LEGEND_CHARS) ? "#{series.label[0, LEGEND_CHARS - 1]}…" : series.label
          svg.text(lx + 24, ly + 4, name, tooltip: series.label, class: "legend")
        end
      end
    end
  end
end
