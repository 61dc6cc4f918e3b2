# frozen_string_literal: true

require_relative "canvas"
require_relative "scale"

module Ractorbench
  module Reports
    module Svg
      # A horizontal bar per item, with its 95% interval as a whisker and
      # optional vertical reference lines (1x, the worker count, ...).
      class IntervalBars
        Bar = Struct.new(:label, :value, :low, :high, :color, :text, :tooltip, keyword_init: true)
        Reference = Struct.new(:value, :label, keyword_init: true)

        ROW = 22
        TOP = 42
        BOTTOM = 36
        PLOT = 330
        VALUE = 250
        LABEL_CHARS = 30

        def initialize(title:, axis:, bars:, references: [])
          @title = title
          @axis = axis
          @bars = bars
          @references = references
        end

        def to_s
          label_width = (@bars.map { |b| short(b.label).length }.max.to_i * 7 + 12).clamp(70, LABEL_CHARS * 7 + 12)
          width = label_width + PLOT + VALUE
          height = TOP + @bars.size * ROW + BOTTOM
          top = [*@bars.flat_map { |b| [b.value, b.high] }, *@references.map(&:value)].compact.max.to_f
          x = Scale.nice(0, (top > 0) ? top * 1.05 : 1, label_width, label_width + PLOT)
          svg = Canvas.new(width, height, label: @title)
          svg.text(4, 16, @title, class: "chart-title")
          axis(svg, x, height)
          @bars.each_with_index { |bar, i| draw_bar(svg, x, bar, TOP + i * ROW, label_width) }
          @references.each { |ref| reference(svg, x, ref, height) }
          svg.to_s
        end

        private

        def axis(svg, x, height)
          bottom = height - BOTTOM
          x.ticks.each do |t|
            svg.line(x.call(t), TOP - 4, x.call(t), bottom, class: "grid")
            svg.text(x.call(t), bottom + 14, Scale.label(t), class: "tick", text_anchor: "middle")
          end
          svg.line(x.call(x.min), bottom, x.call(x.max), bottom, class: "axis")
          svg.text((x.call(x.min) + x.call(x.max)) / 2, bottom + 30, @axis, class: "axis-label", text_anchor: "middle")
        end

        def draw_bar(svg, x, bar, y, label_width)
          middle = y + ROW / 2.0
          svg.text(label_width - 6, middle + 4, short(bar.label), tooltip: bar.label, class: "bar-label", text_anchor: "end")
          return svg.text(label_width + 4, middle + 4, bar.text, class: "note") if bar.value.nil?

          svg.rect(x.call(0), y + 4, x.call(bar.value) - x.call(0), ROW - 8, fill: bar.color, class: "bar",
            tooltip: bar.tooltip || "#{bar.label}: #{bar.text}")
          whisker(svg, x, bar, middle) if bar.low && bar.high
          svg.text(label_width + PLOT + 8, middle + 4, bar.text, class: "value")
        end

        def whisker(svg, x, bar, middle)
          lo = x.call(bar.low)
          hi = x.call(bar.high)
          svg.line(lo, middle, hi, middle, class: "whisker")
          svg.line(lo, middle - 5, lo, middle + 5, class: "whisker")
          svg.line(hi, middle - 5, hi, middle + 5, class: "whisker")
        end

        def reference(svg, x, ref, height)
          return unless ref.value.between?(x.min, x.max)

          svg.line(x.call(ref.value), TOP - 6, x.call(ref.value), height - BOTTOM, class: "reference")
          svg.text(x.call(ref.value) + 3, TOP - 8, ref.label, class: "reference-label")
        end

        def short(text)
          text = text.to_s
          (text.length > LABEL_CHARS) ? "#{text[0, LABEL_CHARS - 1]}…" : text
        end
      end
    end
  end
end
