# frozen_string_literal: true

require "optparse"
require_relative "../base/version"
require_relative "../base/console"

module Ractorbench
  module CLI
    # Every command's option parser: its own options, then the ones every
    # command takes (--[no-]color, -h/--help, -v/--version), then what its
    # exit status means. Help and version never call `exit` (OptionParser's
    # built-in --version printed "version unknown" and exited 1, and any
    # `exit` would end a Ruby program that called a command): they raise
    # Shown, which CLI.start prints with exit status 0.
    class Parser < OptionParser
      # Text to print instead of running the command (help, version), laid
      # out for the width of where it is printed (the block takes the width).
      class Shown < StandardError
        def initialize(&layout)
          @layout = layout
          super("shown")
        end

        def text(width = Console::DEFAULT_WIDTH) = @layout.call(width)
      end

      INTERRUPTED = [130, "interrupted (Ctrl-C)"].freeze

      # nil (decide from the terminal and NO_COLOR), true or false.
      attr_reader :color

      # exit_codes: [[code, meaning], ...]; the block defines the command's own options.
      def initialize(banner, exit_codes:)
        super(banner)
        self.program_name = "ractorbench"
        self.version = VERSION
        @exit_codes = exit_codes + [INTERRUPTED]
        yield self if block_given?
        common
      end

      # How this command's text reaches a terminal (width, colour).
      def terminal(io) = Console.new(io, color: color)

      def self.version_line = "ractorbench #{VERSION}"

      # OptionParser's help for a screen of width columns: an option's
      # description wraps under its column; a paragraph of prose (flush-left
      # lines, one after another) is joined and wrapped as one; other lines
      # (examples of code) wrap under their indent only when too long.
      def help(width = Console::DEFAULT_WIDTH)
        column = summary_indent.length + summary_width + 1
        lines = paragraphs(super()).flat_map do |body|
          if body.match?(/\A\s*-/) && body.length > column && body[column - 1] == " "
            Console.hang(body[0, column], body[column..], width)
          elsif body.match?(/\A\S/) && !body.match?(Console::LABEL)
            Console.hang("", body, width, column: 0)
          else
            Console.wrap_line(body, width)
          end
        end
        lines += @exit_codes.flat_map { |code, meaning| Console.hang(format("    %-4d", code), meaning, width) }
        lines.join("\n") + "\n"
      end
      alias_method :to_s, :help

      private

      # Flush-left lines one after another are a paragraph, until one ends
      # with a colon (a heading, or the line before an example).
      def paragraphs(text)
        text.lines.map(&:chomp).slice_when { |a, b| !(a.match?(/\A\S.*[^:]\z/) && b.match?(/\A\S/)) }.map { |lines| lines.join(" ") }
      end

      def common
        separator("")
        separator("Common options:")
        on("--[no-]color", "colour on a terminal (default; none when NO_COLOR is set or output is not a terminal)") { |c| @color = c }
        on("-h", "--help", "this help") { raise Shown.new { |width| help(width) } }
        on("-v", "--version", "the version of ractorbench") { raise Shown.new { self.class.version_line } }
        separator("")
        separator("Exit status:") # the codes follow, laid out by #help
      end
    end
  end
end
