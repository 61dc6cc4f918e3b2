# frozen_string_literal: true

require "shellwords"
require "time"
require_relative "../printable"
require_relative "../plan/catalog"
require_relative "../plan/options"
require_relative "../plan/size"
require_relative "../plan/capacity"
require_relative "../plan/recorded_plan"
require_relative "../plan/adaptive_reps"
require_relative "../plan/shard"
require_relative "../rubies/target"
require_relative "../rubies/selection"
require_relative "../rubies/variants"
require_relative "../measure/machine"
require_relative "../measure/collector"
require_relative "../measure/interference"
require_relative "../analysis"
require_relative "../reports"
require_relative "../plural"

require_relative "../measure/quiet_wait"
require_relative "../profile/stage"
require_relative "../reports/parts/profile_tables"
require_relative "../cli"
require_relative "../cli/parser"

module Ractorbench
  module Commands
    # `ractorbench run`: plan the matrix, run each measurement in a fresh
    # child Ruby, store every run as it finishes, then summarise.
    class Run
      DEFAULT_TIMEOUT = 600.0
      EXIT_CODES = [[0, "every run succeeded and every model computed the same results"],
        [1, "a run failed, or a model's results differ from serial's (the table says which)"],
        [2, "bad input: one line on stderr says what to change; nothing is run"]].freeze

      def initialize(argv, out:, err:)
        @out = out
        @err = err
        @argv = argv.dup
        @plan = Plan::Options.new
        @ruby_texts = []
        @variants = Rubies::Variants.new
        @files = []
        parser.parse!(argv)
        raise UsageError, "#{command_name} takes options only, got #{argv.join(" ")}; see `ractorbench help #{command_name}`" unless argv.empty?
        raise UsageError, "--wide widens the summary table; --format #{@format} is not the summary" if @wide && !summary?
        if @shard && @plan.adaptive
          raise UsageError, "--shard and --reps auto do not mix: each shard would add repetitions of its own; give --reps N"
        end
      end

      # The results file, once call has run (Ractorbench.run reads it).
      attr_reader :results_path

      def call
        @started = Time.now
        session = @resume ? resume_session : new_session
        collect(session)
      ensure
        session&.writer&.close
      end

      private

      def parser
        @parser ||= CLI::Parser.new(banner, exit_codes: self.class::EXIT_CODES) do |o|
          plan_options(o)
          collection_options(o)
        end
      end

      def banner = "Usage: ractorbench run [--suite NAME | -w LIST -m LIST --workers N,.. --messages N,..] [options]"

      # What to run: the options `tour` does not take (it runs every suite).
      def plan_options(o)
        o.on("--suite NAME", "run a suite (see `ractorbench list`)") { |s| @plan.suite = Plan::Suite.fetch(s) }
        o.on("-w", "--workloads LIST", "comma-separated workloads (default prime)") { |l| @plan.workloads = Plan::NumberList.names("--workloads", l) }
        o.on("-m", "--models LIST", "comma-separated models (default all)") { |l| @plan.models = Plan::NumberList.names("--models", l) }
        o.on("--workers LIST", "worker counts, e.g. 1,2,4") { |l| @plan.workers = Plan::NumberList.positive_integers("--workers", l) }
        o.on("--messages LIST", "messages per worker, e.g. 100,1000") { |l| @plan.messages = Plan::NumberList.positive_integers("--messages", l) }
        o.on("--param KEY=VALUE", "a workload parameter (repeatable)") { |p| @plan.add_param(p) }
        o.on("--scale F", "shrink (or grow) message counts by F, e.g. 0.05") { |f| @scale_given = @plan.scale = Plan::NumberList.positive_float("--scale", f) }
        o.on("--time SECONDS", "ops-per-second runs: seconds per sample (default 1)") { |t| @plan.add_param("time=#{Plan::NumberList.positive_float("--time", t)}") }
        o.on("--load FILE", "load more workloads/models from FILE (repeatable)") { |f| @files << f }
        o.on("--ruby-bench DIR", "the Ractor-capable benchmarks of a ruby-bench checkout, each under every model (-w narrows " \
          "them by name); see docs/ruby-bench.md") { |d| @plan.ruby_bench = Plan::RubyBench.at(d) }
        o.on("--shard I/N", "run only slice I of N of the plan (by a hash of each run's id), e.g. one CI job's; " \
          "`ractorbench merge` joins the slices") { |s| @shard = Plan::Shard.parse(s) }
      end

      # How to run and report it: `run` and `tour` alike.
      def collection_options(o)
        o.on("--reps N", "repetitions of each configuration, or auto[:SECONDS]: until each median's 95% interval is within ±5% " \
          "or SECONDS (default #{Plan::AdaptiveReps::DEFAULT_BUDGET.to_i}) are spent") do |n|
          @plan.adaptive = Plan::AdaptiveReps.parse(n)
          @plan.reps = Plan::NumberList.positive_integer("--reps", n) unless @plan.adaptive
        end
        o.on("--ruby RUBY", "a Ruby under test (repeatable; default the running ruby): NAME=COMMAND, a command, " \
          "or a Ruby `ractorbench rubies` finds, by version (4.0) or name (ruby-3.4.0)") { |r| @ruby_texts << r }
        o.on("--rubies LIST", "several found Rubies: all, or a list such as 3.4,4.0") { |l| @rubies_text = l }
        Rubies::Variants.add_options(o, @variants)
        o.on("--seed N", "replay the run order of an earlier collection") { |n| @seed = Plan::NumberList.seed("--seed", n) }
        o.on("--timeout SECONDS", "time limit per run (default #{DEFAULT_TIMEOUT.to_i})") { |t| @timeout = Plan::NumberList.positive_float("--timeout", t) }
        Measure::QuietWait.add_option(o) { |wait| @quiet_wait = wait }
        o.on("-o", "--output FILE", "results file (JSON Lines); never replaces anything") { |f| @output = f }
        o.on("--force", "with -o: replace an existing regular file (never a link or a device)") { @force = true }
        o.on("--resume FILE", "run only what FILE's collection has not finished") { |f| @resume = f }
        o.on("--format NAME", "format of the closing table (default summary; see `ractorbench help`)") { |f| @format = f }
        o.on("--wide", "the closing table with every column (as `report --format text` without the statistics)") { @wide = true }
        o.on("--first-run MODE", "auto|include|exclude: each configuration's first run in the closing table's " \
          "statistics (auto: left out for a JIT Ruby), as `report --first-run`") { |m| @first_run = Analysis::FirstRun.parse(m) }
        o.on("--profile[=TOOL]", "after the timed runs, one more run of each configuration with a profiler (perf, " \
          "else vernier), not among the timed runs: where the time went, next to serial's") { |t| @profile = Profile::Request.parse(t) }
      end

      # suspects: ids of runs a signal to the collector alone stopped before;
      # planned: every run of the plan (on --resume, runs holds those left).
      Session = Struct.new(:catalog, :targets, :runs, :writer, :timeout, :first_seq, :suspects, :profile, :planned,
        keyword_init: true)

      def new_session
        path = @output || default_output
        Store::OutputPath.check!(path, force: @force, exists: Store::Writer.exists_message(path))
        catalog = @plan.catalog(Plan::Catalog.default.with(@files))
        entries = plan_entries(catalog)
        refuse_profile(catalog, entries)
        given = rubies
        Plan::Size.count!(entries, rubies: given.size, reps: repetitions, shards: @shard&.count || 1)
        seed = @seed || Random.new_seed % 2**32
        plan = Plan::Matrix.build(entries: entries, rubies: given.map(&:name), reps: repetitions, seed: seed)
        plan, shard = slice(plan)
        Plan::Size.check!(plan.runs, catalog, timeout: timeout)
        Plan::Capacity.check!(plan.runs, catalog, given)
        targets = given.map { |t| t.probe!(timeout: timeout) }
        probe_scaling(targets, entries)
        renderer
        profile = @profile && Profile::Stage.new(@profile, targets, say: method(:note))
        writer = Store::Writer.create(path, header(plan, targets, catalog).merge(shard)
          .merge(profile ? {"profile" => profile.to_h} : {}), force: @force)
        of = @shard ? " (shard #{@shard} of a plan of #{shard.dig("shard", "plan_runs")})" : ""
        note("ractorbench: #{Plural.count(plan.runs.size, "run")}#{of}, seed #{seed}, results in #{path}")
        Session.new(catalog: catalog, targets: targets, runs: plan.runs, writer: writer, timeout: timeout, first_seq: 1,
          profile: profile)
      end

      # Finishes a collection: the file locked first (no second writer), then
      # read; runs recorded are done, a run that took the collector down with
      # it twice is recorded as failed (Store::Marks), the rest run.
      def resume_session
        refuse_plan_options
        writer = Store::Writer.resume(@resume)
        contents = Store.read(@resume)
        header = contents.header
        if header["merged"]
          raise UsageError, "#{@resume} was written by `ractorbench merge`; resume each collection it joined, then merge again"
        end
        # Checked as a command line is, before any line is written or cut.
        recorded = Plan::RecordedPlan.new(@resume, header, contents.runs, default_timeout: DEFAULT_TIMEOUT)
        writer.drop_partial_line
        catalog = recorded.catalog
        timeout = recorded.timeout
        targets = recorded.targets.map { |t| t.probe!(timeout: timeout) }
        done = contents.runs.map { |r| r["id"] }.to_h { |id| [id, true] }
        plan = recorded.matrix
        pending = plan.runs.reject { |spec| done.key?(spec.id) }
        renderer
        note("ractorbench: warning: dropped a half-written last line; that run will run again") if contents.truncated
        note("ractorbench: resuming #{@resume}: #{Plural.count(done.size, "run")} done, #{pending.size} to go (seed #{plan.seed})")
        seq = contents.runs.size + 1
        marks = Store::Marks.unfinished(@resume, done)
        pending, dead = pending.partition { |spec| (marks[spec.id]&.deaths || 0) < Store::Marks::DEATHS }
        dead.each_with_index { |spec, i| record_death(writer, spec, marks[spec.id], seq + i) }
        Session.new(catalog: catalog, targets: targets, runs: pending, writer: writer, timeout: timeout, first_seq: seq + dead.size,
          suspects: marks.values.select(&:suspected).map(&:id), profile: Profile::Stage.resume(header, targets, say: method(:note)),
          planned: plan.runs)
      rescue
        writer&.close
        raise
      end

      def record_death(writer, spec, deaths, seq)
        reason = "the collector died during this run, each of the #{deaths.deaths} times it ran (the run killed or " \
          "crashed ractorbench, or something else did); recorded as failed so the collection can finish"
        writer.append({"type" => "run", "id" => spec.id, "seq" => seq, "started_at" => deaths.started_at}
          .merge(spec.to_h).merge("status" => "failed", "failure" => "collector_died", "reason" => reason))
        @err.puts("ractorbench: FAILED #{spec.id}: #{reason}")
      end

      # --resume runs what the file planned; options that would plan
      # something else are refused rather than silently ignored.
      def refuse_plan_options
        given = {
          "--suite" => @plan.suite, "-w" => @plan.workloads, "-m" => @plan.models, "--workers" => @plan.workers,
          "--messages" => @plan.messages, "--param/--time" => !@plan.params.empty?, "--reps" => @plan.reps || @plan.adaptive,
          "--scale" => @scale_given, "--ruby/--rubies" => !@ruby_texts.empty? || !@rubies_text.nil?, "--yjit/--zjit/--mn/--max-cpu" => !@variants.empty?,
          "--seed" => @seed, "--timeout" => @timeout, "-o" => @output, "--load" => !@files.empty?, "--force" => @force,
          "--shard" => @shard, "--profile" => @profile, "--ruby-bench" => @plan.ruby_bench
        }.select { |_, v| v }.keys
        return if given.empty?

        raise UsageError, "--resume runs what #{@resume} planned, so it takes no plan options (got #{given.join(", ")}): " \
          "drop them, or start a new collection with -o"
      end

      def plan_entries(catalog) = @plan.entries(catalog)

      # --shard I/N: this job's slice of the plan, and what the header
      # records of it (the whole plan's fingerprint, for `merge`).
      def slice(plan)
        return [plan, {}] unless @shard

        runs = @shard.select(plan.runs)
        # An empty slice is no error: a CI matrix of fixed size may have one.
        note("ractorbench: no run of this plan's #{plan.runs.size} falls in shard #{@shard}") if runs.empty?
        [Plan::Matrix.new(seed: plan.seed, runs: runs), {"shard" => @shard.to_h(plan.runs)}]
      end

      # Once per Ruby, when the plan runs a ractor model at W >= 2: do W
      # ractors that share nothing cost more CPU per iteration than one?
      # W is the plan's largest ractor worker count, at most the usable cores.
      def probe_scaling(targets, entries)
        counts = entries.select { |e| e.models.any? { |m| m.start_with?("ractor") } }.flat_map { |e| e.configs.map(&:first) }
        return if counts.empty? || counts.max < 2

        cores = [Measure::Machine.usable_cores, 2].max
        workers = counts.max.clamp(2, cores)
        targets.each { |t| t.scaling_probe!(workers) if t.info.dig("features", "ractor") }
      end

      def repetitions = @plan.repetitions

      def default_output = "ractorbench-#{Time.now.strftime("%Y%m%d-%H%M%S")}.jsonl"

      def collector(session, count, progress: Measure::Progress.for(count, io: @err))
        Measure::Collector.new(catalog: session.catalog, targets: session.targets, timeout: session.timeout,
          writer: session.writer, progress: progress, quiet_wait: @quiet_wait, suspects: session.suspects || [])
      end

      def collect(session)
        @results_path = session.writer.path
        begin
          collector(session, session.runs.size).collect(session.runs, first_seq: session.first_seq)
          adapt(session) if @plan.adaptive && !@resume
          profile(session)
          session.writer.finish
        rescue Measure::Collector::Stopped => e
          stopped(e, session)
        rescue Store::Writer::Failed => e
          raise Exit.new(failed(e), 1)
        end
        path = session.writer.path
        analysis = Analysis.new(Store.read(path), first_run: @first_run || "auto")
        @out.write(closing(analysis))
        note("ractorbench: results in #{path}; #{Printable.command("ractorbench", "report", path)} shows them again, " \
          "with every statistic behind `--format text`")
        (analysis.failed.zero? && analysis.digest_check.agree?) ? 0 : 1
      end

      # --profile: refused before anything runs when it cannot be honoured.
      def refuse_profile(catalog, entries)
        return unless @profile
        raise UsageError, "--profile and --shard do not mix: profile one machine's whole collection (merge keeps runs only)" if @shard

        @profile.refuse!(entries.flat_map(&:models).uniq.to_h { |m| [m, catalog.model(m).family] })
      end

      # The profiled runs, after every timed run (the plan's, on --resume).
      def profile(session)
        return unless session.profile&.any?

        session.profile.collect(session.planned || session.runs, catalog: session.catalog, targets: session.targets,
          timeout: session.timeout, writer: session.writer, io: @err, recorded: session.runs.size)
      end

      def stopped(error, session)
        path = session.writer.path
        left = session.runs.size - error.recorded
        raise Exit.new("#{error.message}: the run in flight was killed; #{path} keeps every finished run (#{left} left " \
          "to run): #{Printable.command("ractorbench", "run", "--resume", path)} finishes it#{suspect(error)}", 128 + error.signo)
      end

      # A signal to ractorbench alone during a run may have been the run's.
      def suspect(error)
        return "" unless error.suspect

        ". SIG#{Signal.signame(error.signo)} came to ractorbench alone, not to its process group (as Ctrl-C or a closed " \
          "terminal would), while #{error.suspect} ran: if you did not send it, that run did, and is recorded as failed " \
          "if it does so again"
      end

      # The file could not be written (or written back): where its runs are now.
      def failed(error)
        path = error.path
        return error.message unless path && File.file?(path)

        "#{error.message}: fix that, then #{Printable.command("ractorbench", "run", "--resume", path)} finishes it"
      end

      # --reps auto: more repetitions of the configurations whose median is
      # still uncertain, a block at a time, within the time budget. One line
      # tells how far it got: redrawn in place on a terminal, said once at
      # the end elsewhere; a failure still gets its own line.
      def adapt(session)
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + @plan.adaptive.budget - (Time.now - @started)
        rng = Random.new(session.runs.size)
        seq = session.first_seq + session.runs.size
        rounds = 0
        loop do
          break if Process.clock_gettime(Process::CLOCK_MONOTONIC) >= deadline

          block = @plan.adaptive.next_block(Analysis.new(Store.read(session.writer.path), first_run: "include"), rng)
          break if block.empty?

          rounds += 1
          redraw("ractorbench: --reps #{@plan.adaptive}: round #{rounds}, #{Plural.count(block.size, "configuration")} " \
            "not yet within ±5%: one more run each")
          collector(session, block.size, progress: Measure::Progress.new(@err)).collect(block, first_seq: seq)
          seq += block.size
        end
        redraw(nil)
        return if rounds.zero?

        @err.puts("ractorbench: --reps #{@plan.adaptive}: #{Plural.count(rounds, "more round")} of the configurations " \
          "not yet within ±5% (#{Plural.count(seq - session.first_seq, "run")} in all)")
      end

      # One status line, drawn over the last on a terminal (nil clears it).
      def redraw(line)
        return unless @err.tty?

        width = parser.terminal(@err).width - 1
        @err.print("\r\e[K#{line.to_s[0, width]}")
        @err.flush
      end

      # The format asked for (its traits: Reports::Format), else the default.
      def renderer
        @renderer ||= @format ? Reports.format(@format) : Reports.default
      end

      def command_name = "run"

      # A line on stderr, wrapped to the terminal.
      def note(line) = @err.puts(parser.terminal(@err).present(line))

      def summary? = renderer.closing

      # Options this command does not take, so no advice may ask for them.
      def refused_options = []

      # The closing text: the summary fitted to the terminal, or the format asked for.
      # Names and reasons come from the runs: their control characters are
      # escaped before our own colours go in.
      def closing(analysis)
        terminal = parser.terminal(@out)
        if summary?
          text = renderer.render(analysis, width: terminal.known_width, wide: @wide, colour: terminal.method(:colour),
            refused: refused_options)
          return terminal.paint(terminal.color? ? text : Printable.terminal(text))
        end

        text = Printable.terminal(renderer.render(analysis))
        renderer.shown(text, terminal)
      end

      def rubies
        selection = Rubies::Selection.new
        given = @ruby_texts.map { |t| selection.one(t) }
        given += selection.many(@rubies_text) if @rubies_text
        given = [Rubies::Target.current] if given.empty?
        unique!(given)
        @variants.expand(given, @plan.suite)
      end

      def unique!(targets)
        dup = targets.map(&:name).tally.find { |_, n| n > 1 }
        raise UsageError, "--ruby name #{dup.first.inspect} is given twice; name each Ruby differently" if dup
      end

      def timeout = @timeout || DEFAULT_TIMEOUT

      def header(plan, targets, catalog)
        {
          "type" => "header", "tool" => Store::TOOL, "version" => VERSION,
          "command" => (["ractorbench", command_name] + @argv).shelljoin, "created_at" => Time.now.utc.iso8601,
          "seed" => plan.seed, "timeout" => timeout, "scale" => @plan.scale, "suite" => @plan.suite&.name,
          "reps" => @plan.adaptive&.to_s || plan.runs.map(&:rep).max,
          "machine" => Measure::Machine.describe, "rubies" => targets.map(&:to_h),
          "load" => catalog.files - Plan::Catalog.default.files, "families" => catalog.families, "shapes" => catalog.shapes, "plan" => plan.to_h
        }.merge(@plan.ruby_bench ? {"ruby_bench" => @plan.ruby_bench.to_h} : {})
      end
    end

    CLI.register("run", Run, "run a suite or a matrix of workloads x models x sizes x rubies")
  end
end
