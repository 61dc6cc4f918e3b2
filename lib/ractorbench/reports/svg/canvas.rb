# frozen_string_literal: true

require "erb"

module Ractorbench
  module Reports
    module Svg
      # Writes one inline <svg> element. Every text and every attribute value
      # goes through ERB::Util.html_escape here, so a workload or Ruby named
      # `<script>...` (names come from results files) stays text.
      class Canvas
        attr_reader :width, :height

        def initialize(width, height, label:)
          @width = width
          @height = height
          @label = label
          @parts = []
        end

        def rect(x, y, w, h, **attrs) = element("rect", {x: x, y: y, width: [w, 0].max, height: [h, 0].max}.merge(attrs))

        def line(x1, y1, x2, y2, **attrs) = element("line", {x1: x1, y1: y1, x2: x2, y2: y2}.merge(attrs))

        def circle(cx, cy, r, **attrs) = element("circle", {cx: cx, cy: cy, r: r}.merge(attrs))

        def polyline(points, **attrs)
          element("polyline", {points: points.map { |x, y| "#{num(x)},#{num(y)}" }.join(" "), fill: "none"}.merge(attrs))
        end

        # A tooltip (<title>) goes inside the shape it explains.
        def text(x, y, content, tooltip: nil, **attrs)
          inner = escape(content.to_s) + (tooltip ? "<title>#{escape(tooltip)}</title>" : "")
          @parts << "<text#{attributes({x: x, y: y}.merge(attrs))}>#{inner}</text>"
        end

        def to_s
          "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\"#{attributes(viewBox: "0 0 #{width} #{height}",
            width: width, height: height, "aria-label": @label)}><title>#{escape(@label)}</title>#{@parts.join}</svg>"
        end

        private

        def element(name, attrs)
          tooltip = attrs.delete(:tooltip)
          @parts << (tooltip ? "<#{name}#{attributes(attrs)}><title>#{escape(tooltip)}</title></#{name}>" : "<#{name}#{attributes(attrs)}/>")
        end

        # A page of a thousand configurations has tens of thousands of
        # attributes: names are spelt once, and numbers need no escaping.
        def attributes(attrs)
          attrs.map { |k, v| " #{ATTRIBUTE_NAMES[k]}=\"#{attribute_value(v)}\"" }.join
        end

        ATTRIBUTE_NAMES = Hash.new { |names, key| names[key] = key.to_s.tr("_", "-").freeze }

        def attribute_value(value)
          case value
          when Float then num(value)
          when Integer then value.to_s
          else escape(value.to_s)
          end
        end

        def num(value) = format("%.2f", value).sub(/\.?0+\z/, "")

        def escape(text) = ERB::Util.html_escape(text)
      end
    end
  end
end
