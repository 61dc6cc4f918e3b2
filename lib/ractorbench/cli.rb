# frozen_string_literal: true

require "optparse"
require_relative "errors"

module Ractorbench
  # Dispatches `ractorbench COMMAND ...` to one file per command under
  # commands/. Bad input becomes one line on stderr and exit code 2.
  module CLI
    @commands = {}

    class << self
      attr_reader :commands

      def register(name, command, summary)
        @commands[name] = [command, summary]
      end

      def start(argv, out: $stdout, err: $stderr)
        load_commands
        argv = argv.dup
        name = (argv.first.nil? || argv.first.start_with?("-")) ? nil : argv.shift
        return usage(out) if name.nil? && (argv & %w[-h --help]).any?
        return out.puts("ractorbench #{VERSION}") || 0 if name.nil? && (argv & %w[-v --version]).any?

        name ||= "tour"
        command, = @commands.fetch(name) { raise UsageError, "unknown command #{name.inspect}; run `ractorbench --help`" }
        command.new(argv, out: out, err: err).call
      rescue UsageError, OptionParser::ParseError => e
        err.puts("ractorbench: #{e.message}")
        2
      rescue Exit => e
        err.puts("ractorbench: #{e.message}")
        e.code
      rescue SystemCallError => e
        # A file system error nothing more specific caught: one line, no trace.
        err.puts("ractorbench: #{e.message.sub(/ @ \w+/, "")}")
        2
      rescue SignalException => e
        # Ctrl-C or SIGTERM before or after a collection (during one, the
        # collector says how to resume).
        err.puts("ractorbench: stopped by SIG#{Signal.signame(e.signo)}")
        128 + e.signo
      end

      def usage(out)
        out.puts("Usage: ractorbench [COMMAND] [options]   (no command: a short tour of every experiment)", "")
        @commands.sort.each { |name, (_, summary)| out.puts(format("  %-8s %s", name, summary)) }
        out.puts("", "`ractorbench COMMAND --help` shows a command's options.")
        0
      end

      private

      def load_commands
        Dir[File.join(__dir__, "commands", "*.rb")].sort.each { |f| require f }
      end
    end
  end
end
