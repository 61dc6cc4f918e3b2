# frozen_string_literal: true

require_relative "../store"
require_relative "../analysis"
require_relative "../analysis/history"
require_relative "../analysis/comparison"
require_relative "../base/printable"
require_relative "../base/output_path"
require_relative "../base/atomic_file"
require_relative "../reports/history/formats"
require_relative "../base/console"

require_relative "../cli"
require_relative "../cli/parser"

module Ractorbench
  module Commands
    # `ractorbench history FILES|DIR`: many results files (nightly builds,
    # Ruby versions) as one series per configuration, its trend, and the
    # steps in it (Analysis::History states the method). With
    # --fail-on-change it exits 1 when a step is found, for CI; when no
    # configuration can be judged, 3.
    class History
      INCONCLUSIVE = 3
      FORMATS = Reports::HISTORY_FORMATS
      EXIT_CODES = [[0, "done (--fail-on-change: no step in the configurations judged)"],
        [1, "--fail-on-change: a step was found in a configuration"],
        [2, "bad input (missing files, fewer than two, a bad option): one line on stderr"],
        [INCONCLUSIVE, "inconclusive: no configuration had enough files with undisturbed runs to judge"]].freeze

      def initialize(argv, out:, err:)
        @out = out
        @err = err
        @format = "text"
        @order = "auto"
        @metric = "messages"
        @alpha = 0.05
        @min_change = 0.05
        parser.parse!(argv)
        @paths = paths(argv)
      end

      def call
        OutputPath.check_output!(@output, force: @force, inputs: @paths) if @output
        sources = @paths.map { |p| Analysis::History::Source.new(label: File.basename(p), analysis: analysis(p)) }
        history = Analysis::History.of(sources, order: @order, metric: Analysis::Comparison::METRICS.fetch(@metric),
          metric_title: "#{@metric}-only time".sub("whole-only", "whole-process"), alpha: @alpha, min_change: @min_change)
        width = @output ? Console::DEFAULT_WIDTH : Console.new(@out).width
        text = Printable.terminal(FORMATS.fetch(@format).render(history, width))
        @output ? AtomicFile.write(@output, text, force: @force) : @out.write(text)
        status(history)
      end

      private

      def status(history)
        return INCONCLUSIVE if history.inconclusive?

        (@fail_on_change && history.steps.any?) ? 1 : 0
      end

      def parser
        @parser ||= CLI::Parser.new("Usage: ractorbench history FILES | DIR [options]", exit_codes: EXIT_CODES) do |o|
          o.on("--order HOW", "#{Analysis::History::ORDERS.join("|")}: by each file's Ruby (its date, as the header " \
            "records it), by when each was collected, or as given; auto (default): by Ruby when every file has one") { |h| @order = order(h) }
          o.on("--time KIND", "messages (default) or whole: which time to follow") { |t| @metric = metric(t) }
          o.on("--alpha A", "significance level (default 0.05)") { |a| @alpha = fraction(a, "--alpha", "0.05") }
          o.on("--min-change PCT", "the smallest step reported, in percent (default 5)") { |p| @min_change = fraction(p, "--min-change", "5", percent: true) }
          o.on("--fail-on-change", "exit 1 if a step is found (for CI)") { @fail_on_change = true }
          o.on("--format NAME", "#{FORMATS.keys.join(", ")} (default text)") { |f| @format = format_name(f) }
          o.on("-o", "--output FILE", "write to FILE instead of standard output") { |f| @output = f }
          o.on("--force", "with -o: replace an existing regular file (never a link or a device)") { @force = true }
        end
      end

      # A folder's results files in name order, or the files as given.
      def paths(argv)
        raise UsageError, "history needs results files or a folder of them: `ractorbench history nightly/`" if argv.empty?

        files = argv.flat_map do |path|
          if File.directory?(path)
            Dir[File.join(path, "*.jsonl")].sort.tap { |found| raise UsageError, "#{path} holds no .jsonl results file" if found.empty? }
          else
            raise UsageError, "#{path}: no such file" unless File.file?(path)

            [path]
          end
        end
        raise UsageError, "history needs two or more results files, got #{files.size}: #{files.join(", ")}" if files.size < 2

        files
      end

      def analysis(path)
        contents = Store.read(path)
        Store.warnings(contents).each { |line| @err.puts("ractorbench: warning: #{line}") }
        Analysis.new(contents)
      end

      def order(text)
        return text if Analysis::History::ORDERS.include?(text)

        raise UsageError, "--order must be one of #{Analysis::History::ORDERS.join(", ")}, got #{text.inspect}"
      end

      def metric(text)
        return text if Analysis::Comparison::METRICS.key?(text)

        raise UsageError, "--time must be messages or whole, got #{text.inspect}"
      end

      def fraction(text, option, example, percent: false)
        value = Float(text.delete_suffix("%"))
        value /= 100.0 if percent
        raise ArgumentError unless value.positive? && value < 1

        value
      rescue ArgumentError
        raise UsageError, "#{option} must be a number #{percent ? "between 0 and 100" : "between 0 and 1"}, e.g. #{example}; got #{text.inspect}"
      end

      def format_name(name)
        return name if FORMATS.key?(name)

        raise UsageError, "--format must be one of #{FORMATS.keys.join(", ")}, got #{name.inspect}"
      end
    end

    CLI.register("history", History, "a series of results files: each configuration's trend and where it stepped")
  end
end
