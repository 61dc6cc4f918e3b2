# frozen_string_literal: true

require_relative "printable"

module Ractorbench
  # What a person's terminal can take: how wide it is, and whether it wants
  # colour (https://no-color.org: NO_COLOR set means none; --no-color the
  # same; output that is not a terminal never gets any). One width serves
  # everything printed: tables are laid out for it, prose is wrapped at it.
  class Console
    DEFAULT_WIDTH = 100
    MIN_WIDTH = 40
    # A colour sequence: it takes no column on the screen.
    ESCAPE = /\e\[[\d;]*m/
    # A short label prose hangs under: "WARNING: ", "  fix:   ", "  - ".
    LABEL = /\A\s*(?:- |[\w.-]+: +)/
    LONGEST_LABEL = 16
    # Fewest columns a wrapped text keeps beside its head.
    MIN_TEXT = 20

    ANSI = {bold: "1", red: "31", green: "32", yellow: "33", dim: "2"}.freeze
    # Lines that carry a verdict: the first match colours the marked part.
    HIGHLIGHTS = [
      [/\A(\s*)(WARNING:|CAUTION:|INCOMPLETE:)/, :yellow],
      [/\A(\s*)(FAILED\b|WRONG\b|DIGESTS DISAGREE|REGRESSION\b|CONTENTION:)/, :red],
      [/\A(\s*)(Digests agree|Every model returned the same results)/, :green],
      [/\A(\s*)(Recommendation:)/, :bold]
    ].freeze

    def initialize(io, color: nil, env: ENV)
      @io = io
      @color = color
      @env = env
    end

    # Columns to lay tables out in: the known width, else 100.
    def width = known_width || DEFAULT_WIDTH

    # COLUMNS when set, else the terminal's width; nil for a pipe or a file,
    # where prose is not wrapped: a file keeps its lines whole.
    def known_width
      columns = @env["COLUMNS"].to_i
      return [columns, MIN_WIDTH].max if columns.positive?

      tty_width
    end

    def color?
      return false if @color == false || !@io.respond_to?(:tty?) || !@io.tty?
      return true if @color == true

      @env["NO_COLOR"].to_s.empty? && @env["TERM"] != "dumb"
    end

    # Prose for this terminal: lines wrapped to its width, verdict words
    # coloured. Text holding a table is laid out by whoever made it, for
    # #width, and only painted; so are the lines in keep (code to paste,
    # which wrapping would break). Prose quotes the user's file, module and
    # messages: their control characters are shown escaped, before our own
    # colours go in, never obeyed by the terminal.
    def present(text, keep: []) = paint(Console.wrap(Printable.terminal(text), known_width, keep: keep))

    def paint(text)
      return text unless color?

      text.lines.map { |line| highlight(line) }.join
    end

    def colour(text, style) = color? ? "\e[#{ANSI.fetch(style)}m#{text}\e[0m" : text

    # Columns text takes on the screen: colour sequences take none.
    def self.visible_length(text) = text.include?("\e") ? text.gsub(ESCAPE, "").length : text.length

    # Characters a terminal draws two columns wide (East Asian wide and
    # full-width, emoji), and marks it draws over the one before (none).
    WIDE = /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/
    MARK = /[\p{Mn}\p{Me}]/

    # Columns a name takes on the screen, wide characters two.
    def self.width_of(text)
      length = visible_length(text)
      text.ascii_only? ? length : length + text.scan(WIDE).size - text.scan(MARK).size
    end

    # Every line longer than width (nil: none) broken at spaces. The pieces
    # hang under the text after a short label ("WARNING: ", "  fix:   ") or
    # a bullet ("  - "), else under the line's indent plus two. Rows of a
    # drawn table (starting with | or +) and the lines in keep are left
    # alone, and a word longer than the width stands on its own line.
    def self.wrap(text, width, keep: [])
      return text unless width

      text.each_line.map do |line|
        body = line.chomp
        next line if visible_length(body) <= width || body.match?(/\A\s*[|+]/) || keep.include?(body)

        wrap_line(body, width).join("\n") + (line.end_with?("\n") ? "\n" : "")
      end.join
    end

    def self.wrap_line(line, width)
      indent = line[/\A\s*/]
      label = line[LABEL].to_s
      label = indent unless label.length.between?(indent.length + 1, LONGEST_LABEL)
      hang(label, line[label.length..], width, column: (label == indent) ? indent.length + 2 : label.length)
    end

    # The lines of a description beside a name, as in a list or a help
    # screen: head is the name padded to its column, text wraps under column
    # (by default the head's width). When that leaves under MIN_TEXT
    # columns, or too few for its longest word, the text starts on the next
    # line, under the head's indent plus four.
    def self.hang(head, text, width, column: visible_length(head))
      text = text.strip
      return [head + text] if width.nil? || visible_length(head) + visible_length(text) <= width

      room = [MIN_TEXT, *text.split(/ +/).map { |word| visible_length(word) }].max
      if width - column < room && !head.strip.empty?
        column = head[/\A */].length + 4
        return [head.rstrip, *hang(" " * column, text, width)]
      end
      first, *rest = fill(text, width - visible_length(head), width - column)
      [head + first.to_s, *rest.map { |l| " " * column + l }]
    end

    # The words of text in lines: the first at most first columns, the
    # others at most others (a word longer stands alone). Every word wrap
    # of the reports (prose, table cells, chart labels) is this one.
    def self.fill(text, first, others = first)
      text.split.each_with_object([]) do |word, lines|
        room = (lines.size == 1) ? first : others
        if lines.empty? || visible_length(lines.last) + 1 + visible_length(word) > room
          lines << word
        else
          lines[-1] = "#{lines.last} #{word}"
        end
      end
    end

    private

    def tty_width
      return nil unless @io.respond_to?(:tty?) && @io.tty?

      require "io/console"
      columns = @io.winsize[1]
      columns.positive? ? columns : nil
    rescue NotImplementedError, SystemCallError, NoMethodError
      nil
    end

    def highlight(line)
      HIGHLIGHTS.each do |pattern, style|
        next unless (m = line.match(pattern))

        return line.sub(pattern) { "#{m[1]}#{colour(m[2], style)}" }
      end
      line
    end
  end
end
