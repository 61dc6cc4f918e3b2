# frozen_string_literal: true

require "shellwords"
require "time"
require_relative "../base/printable"
require_relative "../collection"
require_relative "../plan/catalog"
require_relative "../plan/options"
require_relative "../plan/adaptive_reps"
require_relative "../plan/shard"
require_relative "../rubies/target"
require_relative "../rubies/selection"
require_relative "../rubies/variants"
require_relative "../analysis"
require_relative "../reports"
require_relative "../base/plural"

require_relative "../measure/quiet_wait"
require_relative "../profile/request"
require_relative "../reports/parts/profile_tables"
require_relative "../cli"
require_relative "../cli/parser"

module Ractorbench
  module Commands
    # `ractorbench run`: its options into a Collection (plan the matrix,
    # run each measurement in a fresh child Ruby, store every run as it
    # finishes), then the summary.
    class Run
      DEFAULT_TIMEOUT = Collection::DEFAULT_TIMEOUT
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
        renderer
        collection = @resume ? resumed : planned
        @results_path = collection.path
        finish = collection.collect
        @out.write(closing(finish.analysis))
        # The command on a line of its own, never wrapped: pasted as printed, it runs.
        again = "    #{Printable.shell_line(["ractorbench", "report", finish.path])}"
        note("ractorbench: results in #{finish.path}; this shows them again, with every statistic behind `--format text`:\n#{again}",
          keep: [again])
        finish.exit_status
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

      # A new collection of what the options plan, open: its file written
      # with the header, nothing run yet.
      def planned
        path = @output || default_output
        OutputPath.check!(path, force: @force, exists: Store::Writer.exists_message(path))
        catalog = @plan.catalog(Plan::Catalog.default.with(@files))
        entries = plan_entries(catalog)
        refuse_profile(catalog, entries)
        collection = Collection.new(catalog: catalog, entries: entries, rubies: rubies, reps: repetitions,
          command: Printable.shell_line(["ractorbench", command_name] + @argv), output: path, seed: @seed, timeout: timeout,
          force: @force, shard: @shard, adaptive: @plan.adaptive, profile: @profile, quiet_wait: @quiet_wait,
          suite: @plan.suite&.name, scale: @plan.scale, header: @plan.ruby_bench ? {"ruby_bench" => @plan.ruby_bench.to_h} : {},
          first_run: @first_run || "auto", progress: @err, say: method(:note)).open
        of = @shard ? " (shard #{@shard} of a plan of #{collection.planned_runs})" : ""
        note("ractorbench: #{Plural.count(collection.matrix.runs.size, "run")}#{of}, seed #{collection.matrix.seed}, results in #{path}")
        collection
      end

      def resumed
        refuse_plan_options
        Collection.resume(@resume, quiet_wait: @quiet_wait, first_run: @first_run || "auto", progress: @err, say: method(:note)).open
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

      def repetitions = @plan.repetitions

      def default_output = Collection.default_path("ractorbench")

      # --profile: refused before anything runs when it cannot be honoured.
      def refuse_profile(catalog, entries)
        return unless @profile
        raise UsageError, "--profile and --shard do not mix: profile one machine's whole collection (merge keeps runs only)" if @shard

        @profile.refuse!(entries.flat_map(&:models).uniq.to_h { |m| [m, catalog.model(m).family] })
      end

      # The format asked for (its traits: Reports::Format), else the default.
      def renderer
        @renderer ||= @format ? Reports.format(@format) : Reports.default
      end

      def command_name = "run"

      # A line on stderr, wrapped to the terminal.
      def note(line, keep: []) = @err.puts(parser.terminal(@err).present(line, keep: keep))

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
    end

    CLI.register("run", Run, "run a suite or a matrix of workloads x models x sizes x rubies")
  end
end
