# frozen_string_literal: true

require_relative "../store"
require_relative "../analysis"
require_relative "../reports"
require_relative "../store/atomic_file"

require_relative "../cli"
require_relative "../cli/parser"

module Ractorbench
  module Commands
    # `ractorbench report FILE`: statistics of a results file in any format.
    class Report
      EXIT_CODES = [[0, "the report is written"], [1, "some runs computed a different result than serial (the report says which)"],
        [2, "bad input (a missing or unreadable results file, an unknown format): one line on stderr"]].freeze
      HUMAN = %w[text bm].freeze

      def initialize(argv, out:, err:)
        @out = out
        @err = err
        @format = "text"
        @parser = CLI::Parser.new("Usage: ractorbench report FILE [--format #{Reports.names.join("|")}] [-o OUT]",
          exit_codes: EXIT_CODES) do |o|
          o.on("--format NAME", "output format (default text)") { |f| @format = f }
          o.on("-o", "--output FILE", "write to FILE instead of standard output") { |f| @output = f }
          o.on("--first-run MODE", "auto|include|exclude: the first run of each configuration in the statistics " \
            "(auto: left out for a JIT Ruby)") { |m| @first_run = Analysis::FirstRun.parse(m) }
        end
        @parser.parse!(argv)
        raise UsageError, "report needs one results file, e.g. `ractorbench report results.jsonl`" unless argv.size == 1

        @path = argv.first
        # A page of HTML on a terminal helps nobody; piped or redirected it is fine.
        raise UsageError, "--format html writes a page for a browser: add -o report.html" if @format == "html" && !@output && @out.tty?
      end

      def call
        renderer = Reports.fetch(@format)
        contents = Store.read(@path)
        warn_truncated(contents)
        analysis = Analysis.new(contents, first_run: @first_run || "auto")
        text = renderer.render(analysis)
        if @output
          Store::AtomicFile.write(@output, text)
        else
          @out.write(HUMAN.include?(@format) ? @parser.terminal(@out).paint(text) : text)
        end
        analysis.digest_check.agree? ? 0 : 1
      end

      private

      def warn_truncated(contents)
        return unless contents.truncated

        @err.puts("ractorbench: warning: the last line of #{@path} was cut off (a collector stopped mid-write); " \
          "using the #{contents.runs.size} complete runs")
      end
    end

    CLI.register("report", Report, "statistics of a results file, in any format (Formats, below)")
  end
end
