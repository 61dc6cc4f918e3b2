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
    # A word the shell takes as it is: letters of any script, digits and
    # punctuation no shell gives a meaning to.
    SHELL_PLAIN = /\A[[:alnum:]_\-.,:+\/@%=^]+\z/

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
    def command(*words) = "`#{shell_line(words)}`"

    # Words joined for the shell: a plain word as it is (a non-ASCII letter
    # too, which a backslash before each of its bytes would mangle), any
    # other in single quotes.
    def shell_line(words)
      words.map do |word|
        word = word.to_s
        next word if word.match?(SHELL_PLAIN)

        word.valid_encoding? ? "'#{word.gsub("'") { "'\\''" }}'" : Shellwords.escape(word)
      end.join(" ")
    end

    # A CSV cell: text starting like a formula gets a leading quote.
    def cell(value)
      (value.is_a?(String) && value.match?(FORMULA)) ? "'#{value}" : value
    end
  end
end
