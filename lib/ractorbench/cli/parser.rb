# frozen_string_literal: true

require "optparse"
require_relative "../version"
require_relative "../console"

module Ractorbench
  module CLI
    # Every command's option parser: its own options, then the ones every
    # command takes (--[no-]color, -h/--help, -v/--version), then what its
    # exit status means. Help and version never call `exit` (OptionParser's
    # built-in --version printed "version unknown" and exited 1, and any
    # `exit` would end a Ruby program that called a command): they raise
    # Shown, which CLI.start prints with exit status 0.
    class Parser < OptionParser
      # Text to print instead of running the command (help, version).
      class Shown < StandardError
        attr_reader :text

        def initialize(text)
          @text = text
          super("shown")
        end
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

      # OptionParser's help with long descriptions wrapped under their column.
      def help
        width = Console.new(nil).measure || Console::MEASURE
        column = summary_indent.length + summary_width + 1
        super.lines.map do |line|
          body = line.chomp
          next line if body.length <= width

          option = body.match?(/\A\s*-/) && body.length > column && body[column - 1] == " "
          next Console.wrap(line, width) unless option

          text = Console.wrap_line(body[column..], width - column)
          ([body[0, column] + text.first.strip] + text.drop(1).map { |l| " " * column + l.strip }).join("\n") + "\n"
        end.join
      end
      alias_method :to_s, :help

      private

      def common
        separator("")
        separator("Common options:")
        on("--[no-]color", "colour on a terminal (default; none when NO_COLOR is set or output is not a terminal)") { |c| @color = c }
        on("-h", "--help", "this help") { raise Shown, help }
        on("-v", "--version", "the version of ractorbench") { raise Shown, self.class.version_line }
        separator("")
        separator("Exit status:")
        @exit_codes.each { |code, meaning| separator(format("    %-4d%s", code, meaning)) }
      end
    end
  end
end
