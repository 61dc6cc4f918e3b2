# frozen_string_literal: true

module Ractorbench
  # What a person's terminal can take: how wide it is, and whether it wants
  # colour (https://no-color.org: NO_COLOR set means none; --no-color the
  # same; output that is not a terminal never gets any).
  class Console
    DEFAULT_WIDTH = 100
    # Prose longer than this is hard to read however wide the terminal is.
    MEASURE = 100
    MIN_WIDTH = 40

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

    # COLUMNS when set, else the terminal's width; nil for a pipe or a file.
    def known_width
      columns = @env["COLUMNS"].to_i
      return [columns, MIN_WIDTH].max if columns.positive?

      tty_width
    end

    # Where prose wraps: the known width, never past a comfortable measure;
    # nil (no wrapping) when the width is unknown: a file keeps its lines whole.
    def measure = known_width && [known_width, MEASURE].min

    def color?
      return false if @color == false || !@io.respond_to?(:tty?) || !@io.tty?
      return true if @color == true

      @env["NO_COLOR"].to_s.empty? && @env["TERM"] != "dumb"
    end

    # Text for this terminal: lines wrapped to its width, verdict words coloured.
    def present(text) = paint(measure ? Console.wrap(text, measure) : text)

    def paint(text)
      return text unless color?

      text.lines.map { |line| highlight(line) }.join
    end

    def colour(text, style) = color? ? "\e[#{ANSI.fetch(style)}m#{text}\e[0m" : text

    # Every line longer than width broken at spaces. The pieces hang under
    # the text after a short label ("WARNING: ", "  fix:   ") or a bullet
    # ("  - "), else under the line's indent plus two. Table rows (starting
    # with | or +) are left alone, and a word longer than the width stands
    # on its own line.
    def self.wrap(text, width)
      text.each_line.map do |line|
        body = line.chomp
        next line if body.length <= width || body.match?(/\A\s*[|+]/)

        wrap_line(body, width).join("\n") + (line.end_with?("\n") ? "\n" : "")
      end.join
    end

    def self.wrap_line(line, width)
      indent = line[/\A\s*/]
      label = line[/\A\s*(?:- |[\w.-]+: +)/].to_s
      label = indent unless label.length.between?(indent.length + 1, 16)
      hanging = " " * ((label == indent) ? indent.length + 2 : label.length)
      words = line[label.length..].strip.split(/ +/)
      lines = [label + words.shift.to_s]
      words.each do |word|
        if lines.last.length + 1 + word.length <= width
          lines[-1] = "#{lines.last} #{word}"
        else
          lines << hanging + word
        end
      end
      lines
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
