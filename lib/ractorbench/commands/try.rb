# frozen_string_literal: true

require "shellwords"
require "stringio"
require "time"
require_relative "../base/printable"
require_relative "../plan/catalog"
require_relative "../../../harness/try/target"
require_relative "../plan/number_list"
require_relative "../rubies/target"
require_relative "../rubies/selection"
require_relative "../measure/machine"
require_relative "../collection"
require_relative "../base/console"
require_relative "../advisor/preflight"
require_relative "../advisor/ractor_rounds"
require_relative "../advisor/fix_writer"
require_relative "../advisor/fix_summary"
require_relative "../advisor/diagnosis"
require_relative "../advisor/sweep_plan"
require_relative "../advisor/sweep_limits"
require_relative "../advisor/sweep_announcement"
require_relative "../advisor/model_choice"
require_relative "../advisor/contract"
require_relative "../advisor/check_summary"
require_relative "../advisor/disagreement"
require_relative "../advisor/report"
require_relative "../advisor/outcome"
require_relative "../advisor/try_findings"
require_relative "../advisor/examples"
require_relative "../advisor/paths"
require_relative "../advisor/rubies_compared"

require_relative "../measure/quiet_wait"
require_relative "../profile/request"
require_relative "../cli"
require_relative "../cli/parser"
require_relative "../base/errors"

module Ractorbench
  module Commands
    # `ractorbench try FILE`: the user's own work under every model, at
    # 1, 2, ... workers, each run a measured run of the "try" workload
    # (harness/try/adapter.rb) through the usual plan, runner and store.
    class Try
      ADAPTER = File.join(HARNESS_DIR, "try", "adapter.rb")

      def initialize(argv, out:, err:)
        @out = out
        @err = err
        @command = Printable.shell_line(%w[ractorbench try] + argv)
        @reps = Advisor::SweepPlan::DEFAULT_REPS
        @timeout = Advisor::SweepPlan::DEFAULT_TIMEOUT
        parser.parse!(argv)
        @color = parser.color
        if @example
          raise UsageError, "try takes a FILE or --example NAME, not both" unless argv.empty?

          argv << Advisor::Examples.path(@example)
        end
        raise UsageError, "try needs one FILE, e.g. `ractorbench try my_work.rb` (see `ractorbench try --help`)" unless argv.size == 1

        @file = argv.first
      end

      # The same try from keywords, no command line parsed (Ractorbench.try):
      # each keyword is the option of that name, already checked; command
      # is what the header records as asked.
      def self.with(file:, command:, out:, err:, module_name: nil, items: nil, workers: nil, reps: Advisor::SweepPlan::DEFAULT_REPS, models: nil,
        fibers: nil, timeout: Advisor::SweepPlan::DEFAULT_TIMEOUT, ruby: nil, seed: nil, output: nil, check: false, quiet_wait: nil)
        allocate.tap do |try|
          try.instance_eval do
            @file, @command, @out, @err, @module, @items, @workers = file, command, out, err, module_name, items, workers
            @reps, @models, @fibers, @timeout, @ruby_text, @seed = reps, models, fibers, timeout, ruby, seed
            @output, @check, @quiet_wait = output, check, quiet_wait
          end
        end
      end

      # The results file of the sweep and the Analysis of it, once call has
      # run (nil after --check).
      attr_reader :results_path, :analysis

      def call
        return each_ruby if @ruby_texts.to_a.size > 1

        OutputPath.check!(@output, force: @force, exists: Store::Writer.exists_message(@output)) if @output
        check_file
        target = ruby.probe!(timeout: @timeout)
        unless target.programs.loads_harness?
          raise UsageError, "--ruby #{target.name}: #{target.probe.engine} cannot run try (it has no require, Marshal or fork); " \
            "try a CRuby-compatible Ruby, or measure it with #{Printable.command("ractorbench", "run", "--suite", "concurrently", "--ruby", target.name)}"
        end
        preflight = run_check(target)
        diagnoses = Advisor::Diagnosis.all(preflight)
        return fix(target, preflight, diagnoses) if @fix && !Array(preflight.ractor_problems).empty?

        say("--fix: ractors can run #{@file} as written: nothing to fix, no copy written") if @fix
        return check_only(preflight, diagnoses) if @check

        sweep(target, preflight, diagnoses)
      end

      protected

      # This try on one of its Rubies, into its own results file.
      def only(ruby_text, output)
        @ruby_text = ruby_text
        @ruby_texts = nil
        @output = output
        self
      end

      private

      # --ruby A --ruby B ...: the same try on each Ruby, each with a results
      # file named after it, then each model on each Ruby against the first.
      def each_ruby
        if @output
          raise UsageError, "-o names one results file, and each --ruby's try writes its own (named after its Ruby): " \
            "leave -o out, or try one Ruby at a time"
        end
        name = File.basename(@file, ".*")
        tries = @ruby_texts.map.with_index do |text, i|
          @out.puts if i.positive?
          say("On --ruby #{text}:")
          one = dup.only(text, Collection.default_path("ractorbench-try-#{name}-#{slug(text)}"))
          [one.call, one]
        end
        return tries.map(&:first).max if @check

        paths = tries.map { |_, one| one.results_path }
        @out.puts
        compared = Advisor::RubiesCompared.new(paths)
        @out.write(terminal(@out).present(compared.to_s, keep: compared.code_lines))
        tries.map(&:first).max
      end

      # A --ruby as part of a file name: "4.0", "ruby_--yjit".
      def slug(text)
        slug = text.gsub(/[^\w.]+/, "_")
        slug[-24..] || slug
      end

      EXIT_CODES = [[0, "the answer: a model to use, stay serial, or what it takes to tell (more runs, a quieter machine); " \
        "a model the check ruled out and runs that failed are part of it"],
        [1, "no answer: no model had a successful run to compare with serial; with --check, a model cannot run the work"],
        [2, "bad input: FILE missing or broken, the contract not met, work never finishing, results that differ between models"]].freeze

      def parser
        @parser ||= CLI::Parser.new("Usage: ractorbench try FILE [options]   (or: ractorbench try --example NAME)\n\n#{Advisor::Contract::TEXT}\nOptions:", exit_codes: EXIT_CODES) do |o|
          o.on("--items N", "items per run (default: about #{Advisor::SweepPlan::TARGET_SECONDS}s of serial work)") { |n| @items = Plan::NumberList.positive_integer("--items", n) }
          o.on("--workers LIST", "worker counts (default 1, 2, ... up to twice the usable cores)") { |l| @workers = Plan::NumberList.positive_integers("--workers", l).uniq.sort }
          o.on("--reps N", "runs of each model and worker count (default #{Advisor::SweepPlan::DEFAULT_REPS})") { |n| @reps = Plan::NumberList.positive_integer("--reps", n) }
          o.on("-m", "--models LIST", "models to sweep (default #{Advisor::ModelChoice.default_models(Plan::Catalog.default).join(",")}, plus fibers for work that waits)") { |l| @models = Plan::NumberList.names("--models", l) }
          o.on("--[no-]fibers", "include the fibers model (default: when the work spends over half its time waiting)") { |f| @fibers = f }
          o.on("--module NAME", "the module to use when FILE defines work in several") { |m| @module = m }
          Measure::QuietWait.add_option(o) { |wait| @quiet_wait = wait }
          o.on("--timeout SECONDS", "time limit of the check and of each run (default #{Advisor::SweepPlan::DEFAULT_TIMEOUT.to_i})") { |t| @timeout = Plan::NumberList.positive_float("--timeout", t) }
          o.on("--ruby COMMAND", "the Ruby to try it on (default the running ruby), e.g. --ruby 'ruby --yjit', " \
            "or one `ractorbench rubies` finds: --ruby 4.0; twice or more: a try on each, each model compared") do |r|
            (@ruby_texts ||= []) << r
            @ruby_text = r
          end
          o.on("-o", "--output FILE", "results file (JSON Lines; default ./ractorbench-try-NAME-TIME.jsonl)") { |f| @output = f }
          o.on("--force", "with -o: replace an existing regular file (never a link or a device)") { @force = true }
          o.on("--seed N", "replay the run order of an earlier try (its header records the seed)") { |n| @seed = Plan::NumberList.seed("--seed", n) }
          o.on("--example NAME", "an example that ships with ractorbench instead of FILE: " \
            "#{Advisor::Examples.all.keys.join(", ")} (`ractorbench list` shows where)") { |n| @example = n }
          o.on("--check", "only check FILE (a ractor, threads at once, Marshal, the contract): no measurements") { @check = true }
          o.on("--fix", "write a copy of FILE with every mechanical fix for ractors (#{Advisor::FixWriter.default_path("my_work.rb")} " \
            "for my_work.rb, beside it), list what is left to fix by hand, then check the copy and sweep it (with --check: only check it)") { @fix = true }
          o.on("--fix-to PATH", "with --fix: write the fixed copy to PATH (--force to replace a file there)") do |path|
            @fix = true
            @fix_to = path
          end
          o.on("--profile[=TOOL]", "after the sweep, one more run of each model and worker count with a profiler (perf, " \
            "else vernier), not among the timed runs: where the time went, next to serial's") { |t| @profile = Profile::Request.parse(t) }
        end
      end

      def check_file
        raise UsageError, "cannot read #{@file}: no such file" unless File.exist?(@file)
        raise UsageError, "cannot read #{@file}: it is a directory" if File.directory?(@file)
        raise UsageError, "cannot read #{@file}: permission denied" unless File.readable?(@file)
      end

      def file_digest
        Harness::Try::Target.digest(File.binread(@file))
      rescue SystemCallError => e
        raise UsageError, "cannot read #{@file}: #{e.message.sub(/ @ \w+/, "")}"
      end

      def ruby
        @ruby_text ? Rubies::Selection.new.one(@ruby_text) : Rubies::Target.current
      end

      # The check of @file: the quick check in a child, then, for ractors,
      # the rounds on its own copy past each problem (@rounds keeps the copy).
      # @digest: the bytes checked, which every run of the sweep must load.
      def run_check(target)
        digest = file_digest
        preflight = Advisor::Preflight.new(target: target, file: @file, module_name: @module, timeout: @timeout).call
        @rounds = Advisor::RactorRounds.new(target: target, file: @file, module_name: preflight.module_name, timeout: @timeout)
        checked = @rounds.call(preflight)
        raise UsageError, "#{@file} changed while ractorbench checked it; try again once it is saved" unless file_digest == digest
        @digest = digest
        checked
      end

      # The problems found, the fixed copy written and what it leaves, then
      # the copy checked (and swept) in place of FILE.
      def fix(target, preflight, diagnoses)
        terminal = terminal(@out)
        @out.puts(terminal.present(diagnoses.flat_map { |d| d.lines(width: terminal.width) }.join("\n"))) unless diagnoses.empty?
        writer = Advisor::FixWriter.new(@rounds.copy, @file, to: @fix_to, force: @force)
        writer.call
        summary = Advisor::FixSummary.new(preflight, written: writer.written, file: @file)
        @out.puts terminal.present(summary.lines(width: terminal.width).join("\n"))
        @out.puts
        @file = Advisor::Paths.short(writer.path)
        fixed = run_check(target)
        again = Advisor::Diagnosis.all(fixed)
        return check_only(fixed, again) if @check

        sweep(target, fixed, again)
      end

      def check_only(preflight, diagnoses)
        terminal = terminal(@out)
        unless diagnoses.empty?
          text = diagnoses.flat_map { |d| d.lines(width: terminal.width) }.join("\n")
          @out.puts(terminal.present(text, keep: diagnoses.flat_map { |d| d.code_lines(width: terminal.width) }))
        end
        summary = Advisor::CheckSummary.new(@file, preflight, diagnoses)
        summary.lines.each { |line| @out.puts terminal.present(line) }
        summary.code
      end

      def sweep(target, preflight, diagnoses)
        catalog = Plan::Catalog.default.with([ADAPTER])
        models, excluded = Advisor::ModelChoice.new(catalog, asked: @models, fibers: @fibers).call(preflight, diagnoses)
        counts = @workers || Advisor::SweepPlan.worker_counts(Measure::Machine.usable_cores)
        items, note = Advisor::SweepPlan.items(@items, preflight.seconds_per_item, counts)
        # seconds_per_item lets a model hand out coarse items one at a time.
        # file_digest: each run measures the file the check saw, or stops the sweep.
        params = {"file" => File.expand_path(@file), "module" => preflight.module_name,
                  "seconds_per_item" => preflight.seconds_per_item, "file_digest" => @digest}
        entries = Advisor::SweepPlan.entries(*models.partition { |m| catalog.model(m).baseline }, counts, items, params)
        path = @output || Collection.default_path("ractorbench-try-#{File.basename(@file, ".*")}")
        @profile&.refuse!(models.to_h { |m| [m, catalog.model(m).family] })
        # The digest of the bytes checked (and so measured) tells `compare`
        # whether the work itself changed between two tries.
        findings = Advisor::TryFindings.new(file: File.expand_path(@file), file_digest: @digest, module_name: preflight.module_name,
          items: items, preflight: preflight, excluded: excluded, patterns: catalog.patterns)
        collection = Collection.new(catalog: catalog, entries: entries, rubies: [target], reps: @reps, command: @command,
          output: path, seed: @seed, timeout: @timeout, force: @force, profile: @profile, quiet_wait: @quiet_wait,
          header: {"try" => findings.to_h}, record_reps: false, scaling_probe: false,
          sizes: ->(plan) {
            Advisor::SweepLimits.check!(plan, catalog, target, items: items, seconds_per_item: preflight.seconds_per_item,
              timeout: @timeout, title: "#{preflight.module_name}.work")
          },
          # try reports failures itself, after the sweep; on a terminal the
          # progress bar still shows them as they happen.
          progress: @err.tty? ? @err : StringIO.new, say: ->(line) { @err.puts(terminal(@err).present(line)) }).open
        @results_path = collection.path
        Advisor::SweepAnnouncement.lines(runs: collection.matrix.runs.size, models: models, counts: counts, items: items,
          reps: @reps, seconds_per_item: preflight.seconds_per_item).each { |line| say(line) }
        @out.puts
        @out.flush
        finish = collection.collect
        path = finish.path
        analysis = @analysis = finish.analysis
        Advisor::Disagreement.refuse!(analysis, work_location: preflight.work_location, path: path)
        report = screen(analysis, note)
        @out.write(shown(report))
        report.answered? ? 0 : 1
      end

      public

      # What try prints at its end, from its results file alone: `report
      # FILE` (the summary) of a try's file prints it again, this command
      # rebuilt from the command line the file records.
      def ending(analysis) = shown(screen(analysis, Advisor::SweepPlan.recorded_items_note(analysis, @items)))

      private

      # The screen for this terminal: its prose wrapped, its code whole.
      def shown(report) = terminal(@out).present(report.to_s, keep: report.code_lines)

      def screen(analysis, items_note)
        Advisor::Outcome.new(analysis, file: @file, items_note: items_note).report(width: terminal(@out).width)
      end

      def say(line) = @out.puts(terminal(@out).present(line))

      # How this command's text reaches a terminal: --[no-]color as parsed.
      def terminal(io) = Console.new(io, color: @color)
    end

    CLI.register("try", Try, "your own work (FILE) under every model at 1, 2, ... workers, or why a model refuses it")
  end
end
