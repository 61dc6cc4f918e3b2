# frozen_string_literal: true

module Ractorbench
  module Reports
    module Parts
      # Text from results files (names, reasons) made safe for Markdown with
      # Markdown's own backslash escapes, never HTML entities: a reader of the
      # raw text sees "<0.001", and a renderer still cannot take a name
      # like <script> for a tag, nor a "|" for a new table cell.
      module MarkdownText
        module_function

        def escape(text)
          text.to_s.gsub("|", "\\|").gsub(/<(?=[A-Za-z\/!?])/, "\\<").gsub(/&(?=#?\w+;)/, "\\\\&")
        end

        # One line of a Markdown table: "| a | b |", each cell escaped. Every
        # Markdown table (report, compare, report --by, ops, profiles) is drawn by it.
        def row(cells) = "| " + cells.map { |c| escape(c) }.join(" | ") + " |"
      end
    end
  end
end
