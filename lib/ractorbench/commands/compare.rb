# frozen_string_literal: true

require_relative "../base/printable"
require_relative "../base/plural"
require_relative "../base/numbers"
require_relative "../analysis/comparison"
require_relative "../analysis/comparison/sides"
require_relative "../analysis/comparison/cautions"
require_relative "../reports"
require_relative "../analysis/first_run"
require_relative "../base/atomic_file"

require_relative "../cli"
require_relative "../cli/parser"
require_relative "../reports/compare/cells"

module Ractorbench
  module Commands
    # `ractorbench compare A.jsonl B.jsonl [C.jsonl ...]` or
    # `ractorbench compare FILE --by ruby|machine` (the machines of a file
    # `merge` wrote): did anything get faster or slower,
    # by how much, and how sure are we. With --fail-above PCT it exits 1 on
    # a significant slowdown beyond PCT percent, for CI. Runs other programs
    # (or steal) disturbed are left out as `report` leaves them out; a
    # configuration with too many of them is not judged, and when none can
    # be the comparison is inconclusive: exit 3, never 0 or 1.
    class Compare
      INCONCLUSIVE = 3
      EXIT_CODES = [[0, "compared (--fail-above: no significant slowdown beyond it in the configurations judged)"],
        [1, "--fail-above PCT: a configuration is significantly slower by more than PCT%"],
        [2, "bad input (missing files, nothing in common, a bad option): one line on stderr"],
        [INCONCLUSIVE, "inconclusive: too many disturbed runs to judge anything; run again on a quiet machine"]].freeze

      def initialize(argv, out:, err:)
        @out = out
        @err = err
        @format = Reports.default(of: :comparison)
        @metric = "messages_time"
        @alpha = 0.05
        @first_run = "auto"
        parser.parse!(argv)
        @paths = argv
        validate
      end

      def call
        OutputPath.check_output!(@output, force: @force, inputs: @paths) if @output
        sides = Analysis::Comparison::Sides
        built = @by ? sides.public_send(:"by_#{@by}", @paths.first, @baseline, first_run: @first_run, err: @err) :
          sides.files(@paths, first_run: @first_run, err: @err)
        comparison = Analysis::Comparison.new(baseline: built.baseline, others: built.others, metric: @metric, alpha: @alpha,
          key_fields: built.key_fields)
        nothing_in_common!(comparison) if comparison.rows.empty?

        cautions = Analysis::Comparison::Cautions.for(comparison, built.analyses)
        # On a terminal (or with COLUMNS), the text's tables fit its width.
        text = @format.width ? @format.render(comparison, cautions, width: (parser.terminal(@out).known_width unless @output)) :
          @format.render(comparison, cautions)
        # Names and reasons come from the files: no control character reaches a terminal.
        text = Printable.terminal(text)
        if @output
          AtomicFile.write(@output, text, force: @force)
        else
          @out.write(@format.shown(text, parser.terminal(@out)))
        end
        gate(comparison)
      end

      private

      def parser
        @parser ||= CLI::Parser.new("Usage: ractorbench compare A.jsonl B.jsonl [MORE.jsonl ...] | compare FILE --by ruby|machine [options]",
          exit_codes: EXIT_CODES) do |o|
          o.on("--by FIELD", "compare within one file: ruby (each Ruby against the first) or machine (each machine of a " \
            "file `merge` wrote against the first)") { |f| @by = by(f) }
          o.on("--baseline NAME", "with --by: the Ruby or machine to compare against (default the first)") { |n| @baseline = n }
          o.on("--time KIND", "messages (default) or whole: which time to compare") { |t| @metric = metric(t) }
          o.on("--alpha A", "significance level (default 0.05)") { |a| @alpha = alpha(a) }
          o.on("--fail-above PCT", "exit 1 if a configuration is significantly slower by more than PCT%") { |p| @fail_above = percent(p) }
          o.on("--first-run MODE", "auto|include|exclude (see `report --help`)") { |m| @first_run = Analysis::FirstRun.parse(m) }
          o.on("--format NAME", "#{Reports.names(of: :comparison).join(", ")} (default text)") { |f| @format = format_name(f) }
          o.on("-o", "--output FILE", "write to FILE instead of standard output") { |f| @output = f }
          o.on("--force", "with -o: replace an existing regular file (never a link or a device)") { @force = true }
        end
      end

      def validate
        if @by
          raise UsageError, "--by #{@by} compares the #{{"ruby" => "Rubies", "machine" => "machines"}.fetch(@by)} of one results file; give one file, got #{@paths.size}" unless @paths.size == 1
        elsif @paths.size < 2
          raise UsageError, "compare needs two results files (`ractorbench compare before.jsonl after.jsonl`) " \
            "or one with --by ruby or --by machine"
        end
        raise UsageError, "--baseline NAME goes with --by ruby or machine; with files, the first file is the baseline" if @baseline && !@by
      end

      def nothing_in_common!(comparison)
        raise UsageError, "no configuration (same #{comparison.key_fields.join(", ")}) has successful runs on both " \
          "sides; compare files made with the same workloads, models, --workers and --messages"
      end

      # 0, or 1 when --fail-above finds a significant slowdown beyond it;
      # 3 when nothing could be judged, with or without --fail-above.
      def gate(comparison)
        if comparison.inconclusive?
          note("ractorbench: INCONCLUSIVE: too many disturbed runs to judge any configuration#{limit_note}; exit #{INCONCLUSIVE}")
          return INCONCLUSIVE
        end
        return 0 unless @fail_above

        skipped = comparison.disturbed_rows.size
        unless skipped.zero?
          note("ractorbench: warning: --fail-above #{format_pct(@fail_above)}: #{Plural.count(skipped, "configuration")} " \
            "not checked, too many of #{Plural.verb(skipped, "its", "their")} runs disturbed: " \
            "#{Analysis::Comparison::Cautions.shown(Analysis::Comparison::Cautions.not_judged(comparison))}")
        end
        if comparison.runs_needed
          note("ractorbench: warning: --fail-above #{format_pct(@fail_above)}: some configurations have too few " \
            "runs for any slowdown to count; run with --reps #{comparison.runs_needed} or more")
        end
        regressions = comparison.regressions(@fail_above / 100.0)
        regressions.each do |r|
          note("ractorbench: REGRESSION #{comparison.label(r.key)}: #{Reports::Compare::Cells.percent(r.change)} " \
            "(limit +#{format_pct(@fail_above)}%, Holm p #{Reports::Compare::Cells.p(r.p_holm)})")
        end
        regressions.empty? ? 0 : 1
      end

      def note(line) = @err.puts(parser.terminal(@err).present(line))

      def limit_note = @fail_above ? ", so --fail-above #{format_pct(@fail_above)} neither passes nor fails" : ""

      def by(field)
        return field if %w[ruby machine].include?(field)

        raise UsageError, "--by takes ruby (each Ruby of one file against the first) or machine (each machine of a " \
          "merged file against the first), got #{field.inspect}"
      end

      def metric(text)
        Analysis::Comparison::METRICS.fetch(text) { raise UsageError, "--time must be messages or whole, got #{text.inspect}" }
      end

      def alpha(text)
        value = Float(text)
        raise ArgumentError unless value.positive? && value < 1

        value
      rescue ArgumentError
        raise UsageError, "--alpha must be a number between 0 and 1, e.g. 0.05; got #{Numbers.typed(text)}"
      end

      def percent(text)
        value = Float(text.delete_suffix("%"))
        raise ArgumentError if value.negative? || !Numbers.bounded?(value)

        value
      rescue ArgumentError
        raise UsageError, "--fail-above takes a percentage, a finite number such as 10 for 10% slower; got #{Numbers.typed(text)}"
      end

      def format_name(name)
        Reports.format(name, of: :comparison)
      end

      def format_pct(value) = (value == value.round) ? value.round.to_s : value.to_s
    end

    CLI.register("compare", Compare, "did it get faster or slower? two results files, or --by ruby|machine in one")
  end
end
