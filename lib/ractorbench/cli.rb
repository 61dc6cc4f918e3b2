# frozen_string_literal: true

require "optparse"
require_relative "base/errors"
require_relative "base/printable"
require_relative "base/version"
require_relative "cli/parser"
require_relative "cli/streams"
require_relative "base/console"
require_relative "reports"
require_relative "reports/history/formats"
require_relative "../../harness/ractorbench/harness/text_encoding"

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

      # The command's exit status, unless what it printed could not all be
      # written (`> /dev/full`, a closed pipe's buffer): then 2 and a line
      # saying so, never 0 with nothing written.
      def start(argv, out: $stdout, err: $stderr)
        Harness::TextEncoding.utf8!
        Streams.open!
        # A file too big for ulimit -f fails its write (EFBIG, said with the
        # limit) instead of killing ractorbench mid-line.
        trap("XFSZ") {} if Signal.list.key?("XFSZ")
        err = Streams.forgiving(err)
        status = dispatch(argv, out: out, err: err)
        out.flush
        status
      rescue SystemCallError, IOError => e
        last_words(err, "cannot write to standard output: #{e.message.sub(/ @ \w+/, "").sub(/ - .*\z/m, "")}", 2)
      end

      # One line for a file system error; standard output's named as such.
      def system_error(error)
        reason = error.message.sub(/ @ \w+/, "")
        reason.end_with?(" - <STDOUT>") ? "cannot write to standard output: #{reason.delete_suffix(" - <STDOUT>")}" : reason
      end

      def dispatch(argv, out:, err:)
        load_commands
        argv = argv.map { |word| Harness::TextEncoding.utf8(word) }
        name = (argv.first.nil? || argv.first.start_with?("-")) ? nil : argv.shift
        return usage(out) if name.nil? && (argv & %w[-h --help]).any?
        return help(argv, out: out, err: err) if name == "help"
        return out.puts(Parser.version_line) || 0 if name == "version" || (name.nil? && (argv & %w[-v --version]).any?)

        name ||= "tour"
        command, = @commands.fetch(name) { raise UsageError, "unknown command #{name.inspect}; run `ractorbench help`" }
        command.new(argv, out: out, err: err).call
      rescue Parser::Shown => e
        out.puts(e.text(Console.new(out).width))
        0
      rescue UsageError, OptionParser::ParseError => e
        last_words(err, e.message, 2)
      rescue Exit => e
        last_words(err, e.message, e.code)
      rescue SystemCallError => e
        # A file system error nothing more specific caught: one line, no trace.
        last_words(err, system_error(e), 2)
      rescue SignalException => e
        # Ctrl-C or SIGTERM before or after a collection (during one, the
        # collector says how to resume).
        last_words(err, "stopped by SIG#{Signal.signame(e.signo)}", 128 + e.signo)
      end

      # The closing line, and the exit status, even when no one reads
      # standard error any more.
      def last_words(err, line, status)
        # The line may quote a path, a module or a message of the user's.
        err.puts("ractorbench: #{Printable.terminal(line)}")
        status
      rescue SystemCallError, IOError
        status
      end

      # `ractorbench help [COMMAND]`
      def help(argv, out:, err:)
        return usage(out) if argv.empty?
        raise UsageError, "help takes one command, e.g. `ractorbench help run`" if argv.size > 1
        raise UsageError, "no command #{argv.first.inspect}; the commands: #{@commands.keys.sort.join(", ")}" unless @commands.key?(argv.first)

        start([argv.first, "--help"], out: out, err: err)
      end

      def usage(out)
        load_commands
        width = Console.new(out).width
        commands = @commands.sort.map { |name, (_, summary)| [name, summary] } +
          [["help", "help [COMMAND]: this, or a command's options (as COMMAND --help)"], ["version", "the version of ractorbench (as --version)"]]
        prose = ->(line) { Console.wrap_line(line, width) }
        out.puts(*prose["Usage: ractorbench [COMMAND] [options]   (no command: a short tour of every experiment)"], "", "Commands:",
          *commands.flat_map { |name, summary| Console.hang(format("  %-8s ", name), summary, width) },
          "", "Formats:", *formats.flat_map { |line| prose["  #{line}"] },
          "", "Exit status:", *prose["  0 done; 1 a run failed, models disagreed, (compare --fail-above) a slowdown or (history --fail-on-change) a step was found;"],
          *prose["  2 bad input (one line on stderr saying what to change); 130 interrupted."], "",
          *Console.hang("", "`ractorbench help COMMAND` shows a command's options and exit status; NO_COLOR or --no-color: no colour.",
            width, column: 0))
        0
      end

      private

      def formats
        ["report --format: #{Reports.names.join(", ")} (default summary; text: in full)",
          "run and tour --format: the same (default summary: the compact table; --wide for every column)",
          "report --by ruby|machine --format: #{Reports.names(of: :sides).join(", ")} (default text)",
          "compare --format: #{Reports.names(of: :comparison).join(", ")} (default text)",
          "history --format: #{Reports::HISTORY_FORMATS.keys.sort.join(", ")} (default text)"]
      end

      def load_commands
        Dir[File.join(__dir__, "commands", "*.rb")].sort.each { |f| require f }
      end
    end
  end
end
