# frozen_string_literal: true

require_relative "canvas"
require_relative "../../plan/configuration"
require_relative "scale"
require_relative "../parts/figure_cells"

module Ractorbench
  module Reports
    module Svg
      # A scaling sweep (Analysis::Sweep::Panel): speedup over serial against workers
      # for the same total work, a line per model with its 95% intervals,
      # the ideal (speedup = workers, up to the usable cores) and each
      # model's Amdahl fit as a dashed curve, its serial fraction in the legend.
      # 400 units wide with the legend under the plot, to read on a phone;
      # the title (and the parameters, which can hold a long path) go in the
      # page's caption, where they wrap.
      class SweepChart
        WIDTH = 400
        PLOT = 220
        LEFT = 44
        RIGHT = 14
        TOP = 14
        AXIS = 44
        LEGEND = 36

        # colour: model name -> CSS colour (the report's palette)
        def initialize(panel, colour:)
          @panel = panel
          @colour = colour
        end

        def title = "#{@panel.workload}: #{@panel.jobs} jobs at every worker count#{" — #{@panel.ruby}" if @panel.ruby}"

        # The parameters, for the caption under the title.
        def note = Plan::Configuration.shown_params(@panel.params)

        def to_s
          counts = @panel.worker_counts
          ys = @panel.series.flat_map { |s| s.points.flat_map { |p| [p.speedup, p.high] } }.compact
          top = [*ys, *counts.map { |w| ideal(w) }].max.to_f
          pad = [(counts.max - counts.min) * 0.06, 0.4].max
          x = Scale.new(counts.min - pad, counts.max + pad, LEFT, WIDTH - RIGHT)
          y = Scale.nice(0, top * 1.05, bottom, TOP)
          svg = Canvas.new(WIDTH, bottom + AXIS + @panel.series.size * LEGEND, label: "#{title} #{note}: speedup over serial")
          axes(svg, x, y, counts)
          ideal_line(svg, x, y, counts)
          @panel.series.each_with_index { |s, i| draw(svg, x, y, s, i, counts) }
          svg.to_s
        end

        private

        def ideal(workers) = @panel.usable_cores ? [workers, @panel.usable_cores].min : workers

        def bottom = TOP + PLOT

        def axes(svg, x, y, counts)
          y.ticks.each do |t|
            svg.line(LEFT, y.call(t), WIDTH - RIGHT, y.call(t), class: "grid")
            svg.text(LEFT - 6, y.call(t) + 4, Scale.label(t), class: "tick", text_anchor: "end")
          end
          counts.each { |w| svg.text(x.call(w), bottom + 16, w.to_s, class: "tick", text_anchor: "middle") }
          svg.line(LEFT, bottom, WIDTH - RIGHT, bottom, class: "axis")
          svg.line(LEFT, TOP, LEFT, bottom, class: "axis")
          svg.text((LEFT + WIDTH - RIGHT) / 2, bottom + 34, "workers", class: "axis-label", text_anchor: "middle")
          mid = (TOP + bottom) / 2
          svg.text(14, mid, "speedup (×)", class: "axis-label", text_anchor: "middle", transform: "rotate(-90 14 #{mid})")
        end

        def ideal_line(svg, x, y, counts)
          points = counts.map { |w| [x.call(w), y.call(ideal(w))] }
          tip = @panel.usable_cores ? "ideal: speedup = workers, up to the #{@panel.usable_cores} usable cores" : "ideal: speedup = workers"
          svg.polyline(points, class: "reference", stroke: "#777", tooltip: tip)
          svg.text(points.last[0] - 4, points.last[1] - 6, "ideal", class: "reference-label", text_anchor: "end")
        end

        def draw(svg, x, y, series, index, counts)
          colour = @colour.call(series.model)
          fit_curve(svg, x, y, series, colour, counts)
          points = series.points.select(&:speedup)
          svg.polyline(points.map { |p| [x.call(p.workers), y.call(p.speedup)] }, stroke: colour, class: "series") if points.size > 1
          points.each do |p|
            svg.line(x.call(p.workers), y.call(p.low), x.call(p.workers), y.call(p.high), stroke: colour, class: "whisker") if p.low
            interval = p.low ? " #{Parts::FigureCells.interval(p.low, p.high)}" : " (no interval: fewer than 6 runs)"
            svg.circle(x.call(p.workers), y.call(p.speedup), 4, fill: colour, class: "point",
              tooltip: "#{series.model}, #{p.workers} workers: #{format("%.2f", p.speedup)}×#{interval}, n=#{p.samples}")
          end
          legend(svg, series, index, colour)
        end

        # The fitted law, sampled finely over the worker counts the fit used.
        def fit_curve(svg, x, y, series, colour, counts)
          fit = series.fit
          return unless fit.describes?

          last = series.fit_upto.to_i
          return if last <= counts.min

          steps = 24
          points = (0..steps).map do |i|
            n = counts.min + (last - counts.min) * i / steps.to_f
            [x.call(n), y.call(fit.speedup_at(n))]
          end
          svg.polyline(points, stroke: colour, class: "series", stroke_dasharray: "5 4", stroke_width: 1.2,
            tooltip: "#{series.model}: Amdahl fit, serial fraction #{format("%.3f", fit.fraction)}")
        end

        # Under the plot: the model's name whole, then its fit.
        def legend(svg, series, index, colour)
          ly = bottom + AXIS + index * LEGEND + 12
          svg.line(LEFT, ly - 4, LEFT + 18, ly - 4, stroke: colour, class: "series")
          svg.text(LEFT + 24, ly, series.model, class: "legend")
          svg.text(LEFT + 24, ly + 16, fit_label(series.fit), class: "legend note")
        end

        def fit_label(fit)
          case fit.kind
          when :scales
            ceiling = fit.max_speedup ? format(", ≤ %.1f×", fit.max_speedup) : ""
            format("serial fraction %.2f%s%s", fit.fraction, fit.stderr ? format(" ± %.2f", fit.stderr) : "", ceiling)
          when :superlinear then "superlinear: no ceiling"
          when :linear then format("almost linear: serial fraction %.3f", fit.fraction)
          when :flat then "no gain from more workers"
          when :worse then "slower with more workers"
          else "too few points to fit"
          end
        end
      end
    end
  end
end
