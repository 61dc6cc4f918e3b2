# frozen_string_literal: true

require "shellwords"
require "time"
require_relative "../plan/catalog"
require_relative "../plan/options"
require_relative "../rubies/target"
require_relative "../rubies/variants"
require_relative "../measure/machine"
require_relative "../measure/collector"
require_relative "../analysis"
require_relative "../reports"
require_relative "../reports/summary"
require_relative "../plural"

require_relative "../measure/quiet_wait"
require_relative "../cli"
require_relative "../cli/parser"

module Ractorbench
  module Commands
    # `ractorbench run`: plan the matrix, run each measurement in a fresh
    # child Ruby, store every run as it finishes, then summarise.
    class Run
      DEFAULT_TIMEOUT = 600.0
      # Formats for people: coloured on a terminal.
      HUMAN = %w[summary text bm].freeze
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
      end

      # The results file, once call has run (Ractorbench.run reads it).
      attr_reader :results_path

      def call
        session = @resume ? resume_session : new_session
        collect(session)
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
        o.on("-w", "--workloads LIST", "comma-separated workloads (default prime)") { |l| @plan.workloads = list(l) }
        o.on("-m", "--models LIST", "comma-separated models (default all)") { |l| @plan.models = list(l) }
        o.on("--workers LIST", "worker counts, e.g. 1,2,4") { |l| @plan.workers = Plan::NumberList.positive_integers("--workers", l) }
        o.on("--messages LIST", "messages per worker, e.g. 100,1000") { |l| @plan.messages = Plan::NumberList.positive_integers("--messages", l) }
        o.on("--param KEY=VALUE", "a workload parameter (repeatable)") { |p| @plan.add_param(p) }
        o.on("--scale F", "shrink (or grow) message counts by F, e.g. 0.05") { |f| @plan.scale = Plan::NumberList.positive_float("--scale", f) }
        o.on("--time SECONDS", "ops-per-second runs: seconds per sample (default 1)") { |t| @plan.add_param("time=#{Plan::NumberList.positive_float("--time", t)}") }
        o.on("--load FILE", "load more workloads/models from FILE (repeatable)") { |f| @files << f }
      end

      # How to run and report it: `run` and `tour` alike.
      def collection_options(o)
        o.on("--reps N", "repetitions of each configuration") { |n| @plan.reps = Plan::NumberList.positive_integer("--reps", n) }
        o.on("--ruby NAME=COMMAND", "a Ruby under test (repeatable; default the running ruby)") { |r| @ruby_texts << r }
        Rubies::Variants.add_options(o, @variants)
        o.on("--seed N", "replay the run order of an earlier collection") { |n| @seed = Plan::NumberList.seed("--seed", n) }
        o.on("--timeout SECONDS", "time limit per run (default #{DEFAULT_TIMEOUT.to_i})") { |t| @timeout = Plan::NumberList.positive_float("--timeout", t) }
        Measure::QuietWait.add_option(o) { |wait| @quiet_wait = wait }
        o.on("-o", "--output FILE", "results file (JSON Lines)") { |f| @output = f }
        o.on("--resume FILE", "run only what FILE's collection has not finished") { |f| @resume = f }
        o.on("--format NAME", "format of the closing table (default summary; see `ractorbench help`)") { |f| @format = f }
        o.on("--wide", "the closing table with every column (as `report --format text` without the statistics)") { @wide = true }
        o.on("--first-run MODE", "auto|include|exclude: each configuration's first run in the closing table's " \
          "statistics (auto: left out for a JIT Ruby), as `report --first-run`") { |m| @first_run = Analysis::FirstRun.parse(m) }
      end

      Session = Struct.new(:catalog, :targets, :runs, :writer, :path, :timeout, :first_seq, keyword_init: true)

      def new_session
        catalog = Plan::Catalog.default.with(@files)
        entries = plan_entries(catalog)
        targets = rubies.map(&:probe!)
        seed = @seed || Random.new_seed % 2**32
        plan = Plan::Matrix.build(entries: entries, rubies: targets.map(&:name), reps: repetitions, seed: seed)
        renderer
        path = @output || default_output
        writer = Store::Writer.create(path, header(plan, targets, catalog))
        note("ractorbench: #{Plural.count(plan.runs.size, "run")}, seed #{seed}, results in #{path}")
        Session.new(catalog: catalog, targets: targets, runs: plan.runs, writer: writer, path: path,
          timeout: timeout, first_seq: 1)
      end

      def resume_session
        contents = Store.read(@resume)
        header = contents.header
        catalog = Plan::Catalog.default.with(Array(header["load"]))
        targets = header.fetch("rubies").map { |h| Rubies::Target.from_h(h).probe! }
        done = contents.runs.map { |r| r["id"] }.to_h { |id| [id, true] }
        plan = Plan::Matrix.from_h(header.fetch("plan"))
        pending = plan.runs.reject { |spec| done.key?(spec.id) }
        renderer
        note("ractorbench: warning: dropped a half-written last line; that run will run again") if contents.truncated
        note("ractorbench: resuming #{@resume}: #{Plural.count(done.size, "run")} done, #{pending.size} to go (seed #{plan.seed})")
        Session.new(catalog: catalog, targets: targets, runs: pending, writer: Store::Writer.reopen(@resume),
          path: @resume, timeout: header.fetch("timeout", DEFAULT_TIMEOUT), first_seq: contents.runs.size + 1)
      end

      def plan_entries(catalog) = @plan.entries(catalog)

      def repetitions = @plan.repetitions

      def default_output = "ractorbench-#{Time.now.strftime("%Y%m%d-%H%M%S")}.jsonl"

      def collect(session)
        @results_path = session.path
        collector = Measure::Collector.new(catalog: session.catalog, targets: session.targets, timeout: session.timeout,
          writer: session.writer, progress: Measure::Progress.for(session.runs.size, io: @err), quiet_wait: @quiet_wait)
        collector.collect(session.runs, first_seq: session.first_seq)
        session.writer.close
        analysis = Analysis.new(Store.read(session.path), first_run: @first_run || "auto")
        @out.write(closing(analysis))
        note("ractorbench: results in #{session.path}; `ractorbench report #{session.path}` shows them again")
        (analysis.failed.zero? && analysis.digest_check.agree?) ? 0 : 1
      end

      def renderer
        @renderer ||= Reports.fetch(@format || "summary")
      end

      def command_name = "run"

      # A line on stderr, wrapped to the terminal.
      def note(line) = @err.puts(parser.terminal(@err).present(line))

      def summary? = @format.nil? || @format == "summary"

      # The closing text: the summary fitted to the terminal, or the format asked for.
      def closing(analysis)
        terminal = parser.terminal(@out)
        return terminal.present(Reports::Summary.render(analysis, width: terminal.width, wide: @wide, colour: terminal.method(:colour))) if summary?

        text = renderer.render(analysis)
        HUMAN.include?(@format) ? terminal.paint(text) : text
      end

      def rubies
        given = @ruby_texts.empty? ? [Rubies::Target.current] : @ruby_texts.map { |t| Rubies::Target.parse(t) }.tap { |ts| unique!(ts) }
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
          "machine" => Measure::Machine.describe, "rubies" => targets.map(&:to_h),
          "load" => catalog.files - Plan::Catalog.default.files, "families" => catalog.families, "plan" => plan.to_h
        }
      end

      def list(text)
        items = text.split(",").map(&:strip).reject(&:empty?)
        raise UsageError, "expected a comma-separated list, got #{text.inspect}" if items.empty?

        items
      end
    end

    CLI.register("run", Run, "run a suite or a matrix of workloads x models x sizes x rubies")
  end
end
