# frozen_string_literal: true

require_relative "../printable"
require_relative "../store"
require_relative "../analysis"
require_relative "../reports"
require_relative "../store/atomic_file"

require_relative "../cli"

module Ractorbench
  module Commands
    # `ractorbench report FILE`: statistics of a results file in any format.
    class Report
      def initialize(argv, out:, err:)
        @out = out
        @err = err
        @format = "text"
        OptionParser.new do |o|
          o.banner = "Usage: ractorbench report FILE [--format #{Reports.names.join("|")}] [-o OUT]"
          o.on("--format NAME", "output format (default text)") { |f| @format = f }
          o.on("-o", "--output FILE", "write to FILE instead of standard output") { |f| @output = f }
          o.on("--force", "with -o: replace an existing regular file (never a link or a device)") { @force = true }
          o.on("--first-run MODE", "auto|include|exclude: the first run of each configuration in the statistics " \
            "(auto: left out for a JIT Ruby)") { |m| @first_run = Analysis::FirstRun.parse(m) }
        end.parse!(argv)
        raise UsageError, "report needs one results file, e.g. `ractorbench report results.jsonl`" unless argv.size == 1

        @path = argv.first
        # A page of HTML on a terminal helps nobody; piped or redirected it is fine.
        raise UsageError, "--format html writes a page for a browser: add -o report.html" if @format == "html" && !@output && @out.tty?
      end

      def call
        renderer = Reports.fetch(@format)
        Store::OutputPath.check_output!(@output, force: @force, inputs: [@path]) if @output
        contents = Store.read(@path)
        Store.warnings(contents).each { |line| @err.puts("ractorbench: warning: #{line}") }
        analysis = Analysis.new(contents, first_run: @first_run || "auto")
        text = renderer.render(analysis)
        # Names and reasons come from the file: no control character reaches a terminal.
        text = Printable.terminal(text) unless @format == "html"
        @output ? Store::AtomicFile.write(@output, text, force: @force) : @out.write(text)
        analysis.digest_check.agree? ? 0 : 1
      end

      private
    end

    CLI.register("report", Report, "statistics of a results file: text, markdown, csv or json")
  end
end
