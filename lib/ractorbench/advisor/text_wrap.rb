# frozen_string_literal: true

require_relative "../base/console"

module Ractorbench
  module Advisor
    # A line of try's prose wrapped at the width of its screen (100 columns
    # unless told), continuation lines under indent: Console's wrapping.
    module TextWrap
      WIDTH = Console::DEFAULT_WIDTH

      module_function

      def wrap(text, width: WIDTH, indent: "      ")
        Console.hang(text[/\A */], text, width, column: indent.length)
      end
    end
  end
end
