# frozen_string_literal: true

require "shellwords"
require_relative "../base/printable"
require_relative "../base/console"
require_relative "../store"
require_relative "../analysis"
require_relative "../reports"
require_relative "../base/atomic_file"
require_relative "../store/machines"
require_relative "../analysis/comparison/sides"
require_relative "../analysis/side_by_side"
require_relative "../advisor/outcome"
require_relative "../advisor/try_findings"
require_relative "tour"
require_relative "try"

require_relative "../cli"
require_relative "../cli/parser"

module Ractorbench
  module Commands
    # `ractorbench report FILE`: statistics of a results file in any format.
    class Report
      EXIT_CODES = [[0, "the report is written"], [1, "some runs computed a different result than serial (the report says which)"],
        [2, "bad input (a missing or unreadable results file, an unknown format): one line on stderr"]].freeze
      # Commands whose file's summary is what they printed at their end (#ending).
      ENDINGS = {"tour" => Tour, "try" => Try}.freeze

      def initialize(argv, out:, err:)
        @out = out
        @err = err
        @parser = CLI::Parser.new("Usage: ractorbench report FILE [--format #{Reports.names.join("|")}] [-o OUT] " \
          "| report FILE --by ruby|machine [--format #{Reports.names(of: :sides).join("|")}]", exit_codes: EXIT_CODES) do |o|
          o.on("--format NAME", "output format (default summary: the table `run` ends with; text: every statistic; " \
            "with --by, default text)") { |f| @format = f }
          o.on("--by FIELD", "ruby or machine: each model's speedup over serial on each Ruby (or machine of a merged " \
            "file), side by side") { |f| @by = by(f) }
          o.on("-o", "--output FILE", "write to FILE instead of standard output") { |f| @output = f }
          o.on("--force", "with -o: replace an existing regular file (never a link or a device)") { @force = true }
          o.on("--first-run MODE", "auto|include|exclude: the first run of each configuration in the statistics " \
            "(auto: left out for a JIT Ruby)") { |m| @first_run = Analysis::FirstRun.parse(m) }
        end
        @parser.parse!(argv)
        raise UsageError, "report needs one results file, e.g. `ractorbench report results.jsonl`" unless argv.size == 1

        @format = @format ? Reports.format(@format, of: kind) : Reports.default(of: kind)

        @path = argv.first
        # A page of HTML on a terminal helps nobody; piped or redirected it is fine.
        if @format.browser && !@output && @out.tty?
          raise UsageError, "--format #{@format.name} writes a page for a browser: add -o report.#{@format.extension}"
        end
      end

      def call
        return side_by_side if @by

        renderer = @format
        OutputPath.check_output!(@output, force: @force, inputs: [@path]) if @output
        contents = Store.read(@path)
        Store.warnings(contents).each { |line| @err.puts("ractorbench: warning: #{line}") }
        pooled_machines(contents)
        analysis = Analysis.new(contents, first_run: @first_run || "auto")
        if @output
          text = render(renderer, analysis)
          # Names and reasons come from the file: no control character reaches a terminal.
          text = Printable.terminal(text) unless @format.browser
          AtomicFile.write(@output, text, force: @force)
        else
          @out.write(for_terminal(renderer, analysis))
        end
        status(analysis)
      end

      private

      def status(analysis) = analysis.digest_check.agree? ? 0 : 1

      # Which formats --format names: those of a file, or of its sides (--by).
      def kind = @by ? :sides : :analysis

      # --by ruby|machine: the sides compare --by would compare, side by side.
      def side_by_side
        renderer = @format
        OutputPath.check_output!(@output, force: @force, inputs: [@path]) if @output
        sides = Analysis::Comparison::Sides
        built = sides.public_send(:"by_#{@by}", @path, nil, first_run: @first_run || "auto", err: @err)
        pooled_machines(built.analyses.first.first.contents) if @by == "ruby"
        view = Analysis::SideBySide.new(@by, built)
        terminal = @parser.terminal(@out)
        # On a terminal (or with COLUMNS), the text's tables fit its width.
        text = (renderer.width && !@output) ? renderer.render(view, width: terminal.known_width) : renderer.render(view)
        text = Printable.terminal(text) unless renderer.browser
        if @output
          AtomicFile.write(@output, text, force: @force)
        else
          @out.write(renderer.shown(text, terminal))
        end
        view.agree? ? 0 : 1
      end

      # A merged file's machines are pooled in one report; say so, and how
      # to set them side by side instead.
      def pooled_machines(contents)
        return unless Store::Machines.several?(contents)

        names = Store::Machines.of(contents).map(&:name)
        @err.puts("ractorbench: warning: #{@path} holds runs of #{names.size} machines (#{names.join(", ")}), pooled in " \
          "these figures; #{Printable.command("ractorbench", "report", @path, "--by", "machine")} sets them side by side")
      end

      def by(field)
        return field if %w[ruby machine].include?(field)

        raise UsageError, "--by takes ruby (each Ruby side by side) or machine (each machine of a merged file), got #{field.inspect}"
      end

      # The tour and try end with more than the summary (the answer; try's
      # screen): the summary of a file one of them wrote is what it printed
      # at its end, that command rebuilt from the command line the file
      # records. nil for any other file, or a command line this version
      # no longer takes.
      def ending(analysis)
        return api_try_ending(analysis) if analysis.header.command.to_s.start_with?("Ractorbench.")

        name, *argv = Shellwords.split(analysis.header.command.to_s).drop(1)
        command = ENDINGS[name]
        command&.new(argv, out: @out, err: @err)&.ending(analysis)
      rescue UsageError, ArgumentError
        nil
      end

      # A file `Ractorbench.try` wrote records a Ruby call, not a command
      # line: its ending is try's all the same, from the findings it keeps.
      def api_try_ending(analysis)
        try = Advisor::TryFindings.from(analysis.header.try)
        return nil unless try

        Try.with(file: try.file.to_s, command: analysis.header.command, out: @out, err: @err).ending(analysis)
      end

      # A page (or Markdown) of a file `try` wrote opens with what try concluded.
      def render(renderer, analysis)
        return renderer.render(analysis) unless renderer.try && Advisor::Outcome.try?(analysis)

        renderer.render(analysis, try_outcome: Advisor::Outcome.new(analysis))
      end

      # The summary laid out for the terminal (or 100 columns), as `run`
      # ended with it, then where the rest is (a tour's or try's file: as
      # that command ended); text and bm coloured there.
      def for_terminal(renderer, analysis)
        terminal = @parser.terminal(@out)
        # Names and reasons come from the file: their control characters are
        # escaped before our own colours go in.
        if renderer.closing
          ending = ending(analysis)
          return ending if ending

          # The command on a line of its own, never wrapped: pasted as printed, it runs.
          again = "    #{Printable.shell_line(["ractorbench", "report", @path, "--format", "text"])}"
          text = renderer.render(analysis, width: terminal.known_width, colour: terminal.method(:colour)) +
            Console.wrap("Every statistic, the cost per run and each gap to the ideal:\n#{again}", terminal.known_width, keep: [again]) + "\n"
          terminal.paint(terminal.color? ? text : Printable.terminal(text))
        else
          text = render(renderer, analysis)
          renderer.browser ? text : renderer.shown(Printable.terminal(text), terminal)
        end
      end
    end

    CLI.register("report", Report, "statistics of a results file, in any format (Formats, below)")
  end
end
