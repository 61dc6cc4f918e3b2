# frozen_string_literal: true

module Ractorbench
  module Advisor
    # Wraps a line of prose at the width of the terminal try writes for
    # (100 columns), continuation lines indented under it.
    module TextWrap
      WIDTH = 100

      module_function

      def wrap(text, width: WIDTH, indent: "      ")
        lines = []
        line = text[/\A */]
        text.split(" ").each do |word|
          if line.size + word.size + 1 > width && !line.strip.empty?
            lines << line
            line = indent.dup
          end
          line += line.strip.empty? ? word : " #{word}"
        end
        lines << line
      end
    end
  end
end
