# frozen_string_literal: true

require "shellwords"

module Ractorbench
  # Text from a results file (names, reasons) is data, not instructions to a
  # terminal or a spreadsheet: control characters are shown escaped, as
  # Ruby's #inspect would ("\e", "\n", "\u009B"), and a CSV cell that a
  # spreadsheet would run as a formula is quoted.
  module Printable
    # Every C0 control, DEL and the C1 controls (U+0080..U+009F: CSI and
    # friends, which some terminals obey).
    CONTROL = /[\u0000-\u001F\u007F\u0080-\u009F]/
    # Controls other than newline and tab: what a report's own layout never uses.
    STRAY = /[\u0000-\u0008\u000B-\u001F\u007F\u0080-\u009F]/
    FORMULA = /\A[=+\-@\t\r]/

    module_function

    # A name on one line: workloads, models, Rubies, parameters.
    def name(text)
      return text unless text.is_a?(String) && text.match?(CONTROL)

      text.gsub(CONTROL) { |c| c.inspect[1...-1] }
    end

    # A whole rendered text: stray controls escaped, lines kept.
    def terminal(text)
      text = text.scrub unless text.valid_encoding?
      return text unless text.match?(STRAY)

      text.gsub(STRAY) { |c| c.inspect[1...-1] }
    end

    # A command for a person to paste, in backquotes: each word quoted for
    # the shell, so a path with a space or a `$(...)` stays one word.
    def command(*words) = "`#{words.map(&:to_s).shelljoin}`"

    # A CSV cell: text starting like a formula gets a leading quote.
    def cell(value)
      (value.is_a?(String) && value.match?(FORMULA)) ? "'#{value}" : value
    end
  end
end
