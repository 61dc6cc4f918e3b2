# frozen_string_literal: true

require_relative "canvas"
require_relative "scale"
require_relative "../../base/console"

module Ractorbench
  module Reports
    module Svg
      # A horizontal bar per item, with its 95% interval as a whisker and
      # optional vertical reference lines (1x, the worker count, ...).
      #
      # Built for a phone as much as a desktop: 400 units wide, so that drawn
      # at 360 px its 13-unit text is still 11.7 px. Each item takes its own
      # line of text above its bar - the label on the left, the figures on
      # the right (or on a second line when both do not fit) - so a label
      # is never cut: `label` (a model) is written whole, and only `detail`
      # (a workload and size) is shortened when the line is too narrow.
      class IntervalBars
        Bar = Struct.new(:label, :detail, :value, :low, :high, :color, :text, :tooltip, keyword_init: true)
        Reference = Struct.new(:value, :label, keyword_init: true)

        WIDTH = 400
        PAD = 4
        CHAR = 7.0 # average width of a 13-unit character
        LINE = 16
        BAR = 12
        TOP = 22 # room for the reference labels
        TICKS = 26 # the tick labels under the axis; its own label's lines follow

        attr_reader :title

        def initialize(title:, axis:, bars:, references: [])
          @title = title
          @axis = axis
          @bars = bars
          @references = references
        end

        def to_s
          rows = @bars.map { |bar| layout(bar) }
          @axis_lines = Console.fill(@axis, ((WIDTH - 2 * PAD) / CHAR).floor)
          height = TOP + rows.sum { |r| r[:height] } + axis_height
          top = [*@bars.flat_map { |b| [b.value, b.high] }, *@references.map(&:value)].compact.max.to_f
          x = Scale.nice(0, (top > 0) ? top * 1.05 : 1, PAD, WIDTH - PAD)
          svg = Canvas.new(WIDTH, height, label: @title)
          grid(svg, x, height)
          y = TOP
          rows.each do |row|
            draw(svg, x, row, y)
            y += row[:height]
          end
          @references.each { |ref| reference(svg, x, ref, height) }
          svg.to_s
        end

        private

        # The text lines of one item and the height it takes.
        def layout(bar)
          room = WIDTH - 2 * PAD
          text = bar.text.to_s
          label = label_text(bar, room - (text.length + 2) * CHAR)
          lines = if (label.length + text.length + 2) * CHAR <= room
            [[label, text]]
          else
            [[label_text(bar, room), nil], *Console.fill(text, (room / CHAR).floor).map { |l| [nil, l] }]
          end
          {bar: bar, lines: lines, height: lines.size * LINE + (bar.value ? BAR + 8 : 6)}
        end

        # The label whole; the detail after it shortened to what room is left.
        def label_text(bar, room)
          return bar.label.to_s unless bar.detail

          chars = (room / CHAR).floor - bar.label.length - 3
          detail = bar.detail.to_s
          detail = (chars >= 6) ? "#{detail[0, chars - 1]}…" : "" if detail.length > chars
          detail.empty? ? bar.label.to_s : "#{bar.label} · #{detail}"
        end

        def axis_height = TICKS + LINE * @axis_lines.size + 4

        def grid(svg, x, height)
          bottom = height - axis_height
          x.ticks.each do |t|
            svg.line(x.call(t), TOP - 4, x.call(t), bottom, class: "grid")
            anchor = if t == x.ticks.first then "start"
            elsif t == x.ticks.last then "end"
            else "middle"
            end
            svg.text(x.call(t), bottom + 16, Scale.label(t), class: "tick", text_anchor: anchor)
          end
          svg.line(x.call(x.min), bottom, x.call(x.max), bottom, class: "axis")
          @axis_lines.each_with_index do |line, i|
            svg.text(WIDTH / 2, bottom + TICKS + 10 + LINE * i, line, class: "axis-label", text_anchor: "middle")
          end
        end

        def draw(svg, x, row, y)
          bar = row[:bar]
          row[:lines].each_with_index do |(left, right), i|
            base = y + LINE * (i + 1) - 4
            svg.text(PAD, base, left, tooltip: [bar.label, bar.detail].compact.join(" · "), class: "bar-label") if left
            next unless right

            if bar.value
              svg.text(WIDTH - PAD, base, right, class: "value", text_anchor: "end")
            else
              svg.text(left ? WIDTH - PAD : PAD, base, right, class: "note", text_anchor: left ? "end" : "start")
            end
          end
          return unless bar.value

          top = y + row[:lines].size * LINE + 2
          svg.rect(x.call(0), top, x.call(bar.value) - x.call(0), BAR, fill: bar.color, class: "bar",
            tooltip: bar.tooltip || "#{bar.label}: #{bar.text}")
          whisker(svg, x, bar, top + BAR / 2.0) if bar.low && bar.high
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

          at = x.call(ref.value)
          svg.line(at, TOP - 6, at, height - axis_height, class: "reference")
          anchor = (at > WIDTH * 0.7) ? "end" : "start"
          svg.text(at + ((anchor == "end") ? -3 : 3), TOP - 8, ref.label, class: "reference-label", text_anchor: anchor)
        end
      end
    end
  end
end
