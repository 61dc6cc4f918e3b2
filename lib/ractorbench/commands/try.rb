# frozen_string_literal: true

require "shellwords"
require "stringio"
require "time"
require_relative "../base/printable"
require_relative "../plan/catalog"
require_relative "../../../harness/try/target"
require_relative "../plan/number_list"
require_relative "../plan/size"
require_relative "../plan/capacity"
require_relative "../rubies/target"
require_relative "../rubies/selection"
require_relative "../measure/machine"
require_relative "../plan/matrix"
require_relative "../collection"
require_relative "../base/console"
require_relative "../analysis"
require_relative "../analysis/sweep"
require_relative "../reports/parts/units"
require_relative "../advisor/preflight"
require_relative "../advisor/ractor_rounds"
require_relative "../advisor/fix_writer"
require_relative "../advisor/fix_summary"
require_relative "../advisor/diagnosis"
require_relative "../advisor/sweep_plan"
require_relative "../advisor/report"
require_relative "../advisor/outcome"
require_relative "../advisor/examples"
require_relative "../advisor/paths"
require_relative "../advisor/lasting_state"
require_relative "../advisor/fiber_wait"
require_relative "../advisor/rubies_compared"

require_relative "../measure/quiet_wait"
require_relative "../profile/request"
require_relative "../cli"
require_relative "../cli/parser"
require_relative "../base/plural"
require_relative "../base/errors"

module Ractorbench
  module Commands
    # `ractorbench try FILE`: the user's own work under every model, at
    # 1, 2, ... workers, each run a measured run of the "try" workload
    # (harness/try/adapter.rb) through the usual plan, runner and store.
    class Try
      ADAPTER = File.join(HARNESS_DIR, "try", "adapter.rb")
      # The shapes a Ruby engineer writes for a list of items: a queue for
      # threads, batches and a static split for processes and ractors. Every
      # family gets its best shapes, so the fight is fair; the seed's
      # per-message models are there to ask for (-m ractors).
      BEST_SHAPES = %w[queue batches split].freeze
      # Fibers only overlap waiting: swept when the work waits (or --fibers).
      WAITING_FAMILY = "fiber"

      # serial, then each family's best shapes, families in their declared
      # order (Harness::Model::FAMILIES), batches before a split.
      def self.default_models
        @default_models ||= baselines(Plan::Catalog.default) + Plan::Catalog.default.models
          .select { |m| BEST_SHAPES.include?(m.shape) && m.family != WAITING_FAMILY }
          .sort_by { |m| [Harness::Model::FAMILIES.index(m.family) || 99, BEST_SHAPES.index(m.shape), m.name] }.map(&:name)
      end

      # The models every sweep measures the others against (serial).
      def self.baselines(catalog) = catalog.models.select(&:baseline).map(&:name)

      DEFAULT_REPS = 6
      DEFAULT_TIMEOUT = 60.0

      CONTRACT = <<~TEXT
        FILE defines one module (or class) with a module method `work`, and optionally `items`:

            require "json"

            module ParseOrders
              def self.items(n)      # n inputs for work (optional; default 1..n)
                Array.new(n) { |i| JSON.generate({"id" => i, "lines" => [i, i * 2]}) }
              end

              def self.work(item)    # one unit of your work; returns its result
                JSON.parse(item)["lines"].sum
              end
            end

        work must return the same result for the same item whichever model runs it: ractorbench
        compares every model's results with serial's, item by item. Items go to processes with
        Marshal and to ractors as copies, so keep them plain data.

        try first checks FILE in a few seconds: work inside a real ractor and in threads side by side,
        each before anything else has called it (as in a sweep), then the contract, a few items timed
        and Marshal. When a model cannot run the work it lists every problem (which object, where,
        why) and what to change: for ractors the check runs again on its own copy of FILE past each
        problem until none is left. A fix it prints was checked on a copy of FILE. It sweeps the others.
        --fix writes that copy with every mechanical fix (FILE never changes), then checks and sweeps it.
      TEXT

      def initialize(argv, out:, err:)
        @out = out
        @err = err
        @command = Printable.shell_line(%w[ractorbench try] + argv)
        @reps = DEFAULT_REPS
        @timeout = DEFAULT_TIMEOUT
        parser.parse!(argv)
        @color = parser.color
        if @example
          raise UsageError, "try takes a FILE or --example NAME, not both" unless argv.empty?

          argv << Ractorbench::Advisor::Examples.path(@example)
        end
        raise UsageError, "try needs one FILE, e.g. `ractorbench try my_work.rb` (see `ractorbench try --help`)" unless argv.size == 1

        @file = argv.first
      end

      # The same try from keywords, no command line parsed (Ractorbench.try):
      # each keyword is the option of that name, already checked; command
      # is what the header records as asked.
      def self.with(file:, command:, out:, err:, module_name: nil, items: nil, workers: nil, reps: DEFAULT_REPS, models: nil,
        fibers: nil, timeout: DEFAULT_TIMEOUT, ruby: nil, seed: nil, output: nil, check: false, quiet_wait: nil)
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

        Store::OutputPath.check!(@output, force: @force, exists: Store::Writer.exists_message(@output)) if @output
        check_file
        target = ruby.probe!(timeout: @timeout)
        unless target.programs.loads_harness?
          raise UsageError, "--ruby #{target.name}: #{target.info["engine"]} cannot run try (it has no require, Marshal or fork); " \
            "try a CRuby-compatible Ruby, or measure it with #{Printable.command("ractorbench", "run", "--suite", "concurrently", "--ruby", target.name)}"
        end
        preflight = run_check(target)
        diagnoses = Ractorbench::Advisor::Diagnosis.all(preflight)
        return fix(target, preflight, diagnoses) if @fix && !Array(preflight["ractor_problems"]).empty?

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
        compared = Ractorbench::Advisor::RubiesCompared.new(paths)
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
        @parser ||= CLI::Parser.new("Usage: ractorbench try FILE [options]   (or: ractorbench try --example NAME)\n\n#{CONTRACT}\nOptions:", exit_codes: EXIT_CODES) do |o|
          o.on("--items N", "items per run (default: about #{Ractorbench::Advisor::SweepPlan::TARGET_SECONDS}s of serial work)") { |n| @items = Plan::NumberList.positive_integer("--items", n) }
          o.on("--workers LIST", "worker counts (default 1, 2, ... up to twice the usable cores)") { |l| @workers = Plan::NumberList.positive_integers("--workers", l).uniq.sort }
          o.on("--reps N", "runs of each model and worker count (default #{DEFAULT_REPS})") { |n| @reps = Plan::NumberList.positive_integer("--reps", n) }
          o.on("-m", "--models LIST", "models to sweep (default #{Try.default_models.join(",")}, plus fibers for work that waits)") { |l| @models = Plan::NumberList.names("--models", l) }
          o.on("--[no-]fibers", "include the fibers model (default: when the work spends over half its time waiting)") { |f| @fibers = f }
          o.on("--module NAME", "the module to use when FILE defines work in several") { |m| @module = m }
          Measure::QuietWait.add_option(o) { |wait| @quiet_wait = wait }
          o.on("--timeout SECONDS", "time limit of the check and of each run (default #{DEFAULT_TIMEOUT.to_i})") { |t| @timeout = Plan::NumberList.positive_float("--timeout", t) }
          o.on("--ruby COMMAND", "the Ruby to try it on (default the running ruby), e.g. --ruby 'ruby --yjit', " \
            "or one `ractorbench rubies` finds: --ruby 4.0; twice or more: a try on each, each model compared") do |r|
            (@ruby_texts ||= []) << r
            @ruby_text = r
          end
          o.on("-o", "--output FILE", "results file (JSON Lines; default ./ractorbench-try-NAME-TIME.jsonl)") { |f| @output = f }
          o.on("--force", "with -o: replace an existing regular file (never a link or a device)") { @force = true }
          o.on("--seed N", "replay the run order of an earlier try (its header records the seed)") { |n| @seed = Plan::NumberList.seed("--seed", n) }
          o.on("--example NAME", "an example that ships with ractorbench instead of FILE: " \
            "#{Ractorbench::Advisor::Examples.all.keys.join(", ")} (`ractorbench list` shows where)") { |n| @example = n }
          o.on("--check", "only check FILE (a ractor, threads at once, Marshal, the contract): no measurements") { @check = true }
          o.on("--fix", "write a copy of FILE with every mechanical fix for ractors (#{Ractorbench::Advisor::FixWriter.default_path("my_work.rb")} " \
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
        preflight = Ractorbench::Advisor::Preflight.new(target: target, file: @file, module_name: @module, timeout: @timeout).call
        @rounds = Ractorbench::Advisor::RactorRounds.new(target: target, file: @file, module_name: preflight["module"], timeout: @timeout)
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
        writer = Ractorbench::Advisor::FixWriter.new(@rounds.copy, @file, to: @fix_to, force: @force)
        writer.call
        summary = Ractorbench::Advisor::FixSummary.new(preflight, written: writer.written, file: @file)
        @out.puts terminal.present(summary.lines(width: terminal.width).join("\n"))
        @out.puts
        @file = Ractorbench::Advisor::Paths.short(writer.path)
        fixed = run_check(target)
        again = Ractorbench::Advisor::Diagnosis.all(fixed)
        return check_only(fixed, again) if @check

        sweep(target, fixed, again)
      end

      def check_only(preflight, diagnoses)
        terminal = terminal(@out)
        unless diagnoses.empty?
          text = diagnoses.flat_map { |d| d.lines(width: terminal.width) }.join("\n")
          @out.puts(terminal.present(text, keep: diagnoses.flat_map { |d| d.code_lines(width: terminal.width) }))
        end
        models = diagnoses.map(&:subject)
        verdict = models.empty? ? "every model can run it" : "#{models.join(" and ")} cannot run it as written (see above)"
        head = "#{@file}: #{preflight["module"]}.work follows the contract"
        @out.puts terminal.present((head.size + verdict.size + 2 <= 100) ? "#{head}; #{verdict}" : "#{head}\n  #{verdict}")
        @out.puts terminal.present("  checked: #{checked(preflight)}")
        state = Ractorbench::Advisor::LastingState.line(preflight)
        @out.puts terminal.present("  #{state}") if state
        waits = Ractorbench::Advisor::Recommendation::WAITS
        if Ractorbench::Advisor::FiberWait.blocked?(preflight, waits: waits)
          @out.puts terminal.present("  fibers: #{Ractorbench::Advisor::FiberWait.cause(preflight)}")
        end
        diagnoses.empty? ? 0 : 1
      end

      # How far each part of the check got, first use first.
      def checked(preflight)
        parts = []
        if (rounds = preflight["ractor_rounds"].to_i) > 1
          n = preflight["ractor_checked_copy"].to_i
          parts << (n.zero? ? "in a ractor (#{rounds} rounds; no item got through the last)" : "#{n} items in a ractor (#{rounds} rounds)")
        elsif (n = preflight["ractor_checked"])
          parts << (n.zero? ? "in a ractor (no item got through)" : "#{n} items in a ractor")
        end
        parts << "#{preflight["threads_checked"]} in #{preflight["threads_count"]} threads" if preflight["threads_checked"]
        first = parts.empty? ? "" : "first #{parts.join(", ")}; then "
        "#{first}#{preflight["sampled"]} serially (#{Reports::Parts::Units.duration(preflight["seconds_per_item"], space: " ")} each)"
      end

      def sweep(target, preflight, diagnoses)
        catalog = Plan::Catalog.default.with([ADAPTER])
        models, excluded = choose_models(catalog, preflight, diagnoses)
        counts = @workers || Ractorbench::Advisor::SweepPlan.worker_counts(Measure::Machine.usable_cores)
        items, note = Ractorbench::Advisor::SweepPlan.items(@items, preflight["seconds_per_item"], counts)
        # seconds_per_item lets a model hand out coarse items one at a time.
        # file_digest: each run measures the file the check saw, or stops the sweep.
        params = {"file" => File.expand_path(@file), "module" => preflight["module"],
                  "seconds_per_item" => preflight["seconds_per_item"], "file_digest" => @digest}
        # Serial (the baseline) ignores the worker count: measured once, it is every count's baseline.
        bases, others = models.partition { |m| catalog.model(m).baseline }
        entries = [Plan::Entry.new(workload: "try", models: bases, configs: [[1, items]], params: params),
          Plan::Entry.new(workload: "try", models: others, configs: counts.map { |w| [w, items / w] }, params: params)]
        path = @output || Collection.default_path("ractorbench-try-#{File.basename(@file, ".*")}")
        @profile&.refuse!(models.to_h { |m| [m, catalog.model(m).family] })
        # The digest of the bytes checked (and so measured) tells `compare`
        # whether the work itself changed between two tries.
        findings = {"file" => File.expand_path(@file), "file_digest" => @digest,
                    "module" => preflight["module"], "items" => items,
                    "preflight" => preflight, "excluded" => excluded, "patterns" => catalog.patterns}
        collection = Collection.new(catalog: catalog, entries: entries, rubies: [target], reps: @reps, command: @command,
          output: path, seed: @seed, timeout: @timeout, force: @force, profile: @profile, quiet_wait: @quiet_wait,
          header: {"try" => findings}, record_reps: false, scaling_probe: false,
          sizes: ->(plan) { check_size(plan, catalog, target, items, preflight) },
          # try reports failures itself, after the sweep; on a terminal the
          # progress bar still shows them as they happen.
          progress: @err.tty? ? @err : StringIO.new, say: ->(line) { @err.puts(terminal(@err).present(line)) }).open
        @results_path = collection.path
        announce(collection.matrix, models, counts, items, preflight)
        finish = collection.collect
        path = finish.path
        analysis = @analysis = finish.analysis
        refuse_disagreement(analysis, preflight, path)
        report = screen(analysis, note)
        @out.write(shown(report))
        report.answered? ? 0 : 1
      end

      public

      # What try prints at its end, from its results file alone: `report
      # FILE` (the summary) of a try's file prints it again, this command
      # rebuilt from the command line the file records.
      def ending(analysis) = shown(screen(analysis, recorded_items_note(analysis)))

      private

      # The screen for this terminal: its prose wrapped, its code whole.
      def shown(report) = terminal(@out).present(report.to_s, keep: report.code_lines)

      def screen(analysis, items_note)
        Ractorbench::Advisor::Outcome.new(analysis, file: @file, items_note: items_note).report(width: terminal(@out).width)
      end

      # How the item count was chosen, from what the file recorded: the
      # check's time per item and the sweep's worker counts.
      def recorded_items_note(analysis)
        try = analysis.header["try"]
        counts = Ractorbench::Plan::Matrix.planned(analysis.header["plan"]).reject { |r| analysis.baseline?(r.model) }.map(&:workers).uniq.sort
        return if counts.empty?

        items, note = Ractorbench::Advisor::SweepPlan.items(@items, try.dig("preflight", "seconds_per_item"), counts)
        note if items == try["items"]
      end

      # The sweep before it starts: what runs, how much work a run does, and
      # about how long it takes.
      def announce(plan, models, counts, items, preflight)
        sizing = Ractorbench::Advisor::SweepPlan
        per = items / counts.max
        say("Sweep: #{models.join(", ")} at W=#{counts.join(",")}; #{items} items a run " \
          "(#{per} per worker at W=#{counts.max})")
        say("  #{Plural.count(@reps, "run")} a point, #{plan.runs.size} runs in all, each a fresh process: " \
          "#{sizing.about(sizing.estimate(plan.runs.size, items, preflight["seconds_per_item"]))}")
        thin = sizing.thin(items, counts)
        unless thin.empty?
          say("  note: at W=#{thin.join(",")} a worker gets fewer than #{sizing::MIN_PER_WORKER} items, so one slow " \
            "item can leave the others idle; give --items #{sizing::MIN_PER_WORKER * counts.max} or more")
        end
        @out.puts
        @out.flush
      end

      def say(line) = @out.puts(terminal(@out).present(line))

      # How this command's text reaches a terminal: --[no-]color as parsed.
      def terminal(io) = Console.new(io, color: @color)

      # serial (the baseline), the models asked for or the defaults, minus
      # those a diagnosis rules out; by default fibers too when the work
      # mostly waits.
      def choose_models(catalog, preflight, diagnoses)
        wanted = (@models || Try.default_models).dup
        fibers = catalog.models.select { |m| m.family == WAITING_FAMILY }.map(&:name)
        wanted.concat(fibers) if (@models.nil? || @fibers) && fibers?(fibers, preflight)
        wanted.uniq!
        wanted.each { |m| catalog.model(m) }
        # A failed check rules out every model it vouches for.
        ruled_out = diagnoses.to_h { |d| [d.check, "#{d.subject} #{d.headline} (see above)"] }
        excluded = wanted.filter_map { |m| (why = catalog.model(m).vouched_by.filter_map { |c| ruled_out[c] }.first) && [m, why] }.to_h
        [(Try.baselines(catalog) + wanted).uniq - excluded.keys, excluded]
      end

      def fibers?(fibers, preflight)
        if @fibers && fibers.empty?
          raise UsageError, "--fibers: no fibers model is installed here (harness/models/fibers.rb); see `ractorbench list`"
        end

        !fibers.empty? && (@fibers.nil? ? preflight["cpu_share"].to_f < Ractorbench::Advisor::Recommendation::WAITS : @fibers)
      end

      # Timings of different computations compare nothing: no report.
      def refuse_disagreement(analysis, preflight, path)
        check = analysis.digest_check
        return if check.agree?

        wrong = check.disagreements.flat_map(&:runs).group_by { |r| r["model"] }.sort_by(&:first)
          .map { |model, runs| "#{model} (W=#{runs.map { |r| r["workers"] }.uniq.sort.join(",")})" }
        raise UsageError, "#{Ractorbench::Advisor::Paths.short(preflight["work_location"])}: work returned different results under " \
          "#{wrong.join(", ")} than serially (compared item by item); it must return the same result for an item whichever " \
          "thread, process or ractor runs it: leave thread, process and ractor identities, object ids, times and random " \
          "numbers out of the result (runs kept in #{path})"
      end
    end

    # Sizes checked as `run` checks its own, before the sweep starts: a run
    # far beyond the timeout or a sweep over a day (Plan::Size), more
    # workers than the machine can spare (Plan::Capacity).
    class Try
      private

      def check_size(plan, catalog, target, items, preflight)
        each = preflight["seconds_per_item"].to_f
        run = items * each
        lower = "lower --items#{" (the most a run here takes is #{(Plan::Size::FAR * @timeout / each).floor})" if each.positive?}"
        Plan::Size.run!(run, timeout: @timeout, what: "--items #{items}", how: "#{items} items at " \
          "#{Reports::Parts::Units.duration(each, space: " ")} each, as the check timed them", lower: lower)
        Plan::Size.total!(plan.runs.size * [run, @timeout].min, runs: plan.runs.size, lower: "lower --items, --reps or --workers")
        Plan::Capacity.check!(plan.runs, catalog, [target], title: "#{preflight["module"]}.work")
      end
    end

    CLI.register("try", Try, "your own work (FILE) under every model at 1, 2, ... workers, or why a model refuses it")
  end
end
