# frozen_string_literal: true

require "shellwords"
require "time"
require_relative "../plan/catalog"
require_relative "../plan/options"
require_relative "../plan/adaptive_reps"
require_relative "../rubies/target"
require_relative "../rubies/variants"
require_relative "../measure/machine"
require_relative "../measure/collector"
require_relative "../measure/interference"
require_relative "../analysis"
require_relative "../reports"

require_relative "../cli"

module Ractorbench
  module Commands
    # `ractorbench run`: plan the matrix, run each measurement in a fresh
    # child Ruby, store every run as it finishes, then summarise.
    class Run
      DEFAULT_TIMEOUT = 600.0

      def initialize(argv, out:, err:)
        @out = out
        @err = err
        @argv = argv.dup
        @plan = Plan::Options.new
        @ruby_texts = []
        @variants = Rubies::Variants.new
        @files = []
        parser.parse!(argv)
        raise UsageError, "run takes options only, got #{argv.join(" ")}; see `ractorbench run --help`" unless argv.empty?
      end

      def call
        @started = Time.now
        session = @resume ? resume_session : new_session
        collect(session)
      end

      private

      def parser
        OptionParser.new do |o|
          o.banner = "Usage: ractorbench run [--suite NAME | -w WORKLOADS -m MODELS --workers N,.. --messages N,..] [options]"
          o.on("--suite NAME", "run a suite (see `ractorbench list`)") { |s| @plan.suite = Plan::Suite.fetch(s) }
          o.on("-w", "--workloads LIST", "comma-separated workloads (default prime)") { |l| @plan.workloads = list(l) }
          o.on("-m", "--models LIST", "comma-separated models (default all)") { |l| @plan.models = list(l) }
          o.on("--workers LIST", "worker counts, e.g. 1,2,4") { |l| @plan.workers = Plan::NumberList.positive_integers("--workers", l) }
          o.on("--messages LIST", "messages per worker, e.g. 100,1000") { |l| @plan.messages = Plan::NumberList.positive_integers("--messages", l) }
          o.on("--param KEY=VALUE", "a workload parameter (repeatable)") { |p| @plan.add_param(p) }
          o.on("--reps N", "repetitions of each configuration, or auto[:SECONDS]: until each median's 95% interval is within ±5% " \
            "or SECONDS (default #{Plan::AdaptiveReps::DEFAULT_BUDGET.to_i}) are spent") do |n|
            @plan.adaptive = Plan::AdaptiveReps.parse(n)
            @plan.reps = Plan::NumberList.positive_integer("--reps", n) unless @plan.adaptive
          end
          o.on("--scale F", "shrink (or grow) message counts by F, e.g. 0.05") { |f| @plan.scale = Plan::NumberList.positive_float("--scale", f) }
          o.on("--time SECONDS", "ops-per-second runs: seconds per sample (default 1)") { |t| @plan.add_param("time=#{Plan::NumberList.positive_float("--time", t)}") }
          o.on("--ruby NAME=COMMAND", "a Ruby under test (repeatable; default the running ruby)") { |r| @ruby_texts << r }
          Rubies::Variants.add_options(o, @variants)
          o.on("--seed N", "replay the run order of an earlier collection") { |n| @seed = seed(n) }
          o.on("--timeout SECONDS", "time limit per run (default #{DEFAULT_TIMEOUT.to_i})") { |t| @timeout = Plan::NumberList.positive_float("--timeout", t) }
          o.on("--wait-quiet[=SECONDS]", "before each run, wait until other programs leave the CPUs alone (at most SECONDS, default #{Measure::Interference::DEFAULT_WAIT.to_i})") do |s|
            @wait_quiet = s.nil? ? Measure::Interference::DEFAULT_WAIT : Plan::NumberList.positive_float("--wait-quiet", s)
          end
          o.on("-o", "--output FILE", "results file (JSON Lines)") { |f| @output = f }
          o.on("--resume FILE", "run only what FILE's collection has not finished") { |f| @resume = f }
          o.on("--load FILE", "load more workloads/models from FILE (repeatable)") { |f| @files << f }
          o.on("--format NAME", "format of the closing table (default summary)") { |f| @format = f }
          o.on("--first-run MODE", "auto|include|exclude: each configuration's first run in the closing table's " \
            "statistics (auto: left out for a JIT Ruby), as `report --first-run`") { |m| @first_run = Analysis::FirstRun.parse(m) }
        end
      end

      Session = Struct.new(:catalog, :targets, :runs, :writer, :path, :timeout, :first_seq, keyword_init: true)

      def new_session
        catalog = Plan::Catalog.default.with(@files)
        entries = plan_entries(catalog)
        targets = rubies.map(&:probe!)
        probe_scaling(targets, entries)
        seed = @seed || Random.new_seed % 2**32
        plan = Plan::Matrix.build(entries: entries, rubies: targets.map(&:name), reps: repetitions, seed: seed)
        renderer
        path = @output || default_output
        writer = Store::Writer.create(path, header(plan, targets, catalog))
        @err.puts("ractorbench: #{plan.runs.size} runs, seed #{seed}, results in #{path}")
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
        @err.puts("ractorbench: warning: dropped a half-written last line; that run will run again") if contents.truncated
        @err.puts("ractorbench: resuming #{@resume}: #{done.size} runs done, #{pending.size} to go (seed #{plan.seed})")
        Session.new(catalog: catalog, targets: targets, runs: pending, writer: Store::Writer.reopen(@resume),
          path: @resume, timeout: header.fetch("timeout", DEFAULT_TIMEOUT), first_seq: contents.runs.size + 1)
      end

      def plan_entries(catalog) = @plan.entries(catalog)

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

      def collector(session, count)
        Measure::Collector.new(catalog: session.catalog, targets: session.targets, timeout: session.timeout,
          writer: session.writer, progress: Measure::Progress.for(count, io: @err), wait_quiet: @wait_quiet)
      end

      def collect(session)
        collector(session, session.runs.size).collect(session.runs, first_seq: session.first_seq)
        adapt(session) if @plan.adaptive && !@resume
        session.writer.close
        analysis = Analysis.new(Store.read(session.path), first_run: @first_run || "auto")
        @out.write(renderer.render(analysis))
        @err.puts("ractorbench: results in #{session.path}; `ractorbench report #{session.path}` shows them again")
        (analysis.failed.zero? && analysis.digest_check.agree?) ? 0 : 1
      end

      # --reps auto: more repetitions of the configurations whose median is
      # still uncertain, a block at a time, within the time budget.
      def adapt(session)
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + @plan.adaptive.budget - (Time.now - @started)
        rng = Random.new(session.runs.size)
        seq = session.first_seq + session.runs.size
        loop do
          break if Process.clock_gettime(Process::CLOCK_MONOTONIC) >= deadline

          block = @plan.adaptive.next_block(Analysis.new(Store.read(session.path), first_run: "include"), rng)
          break if block.empty?

          @err.puts("ractorbench: --reps #{@plan.adaptive}: #{block.size} configuration(s) not yet within ±5%: one more run each")
          collector(session, block.size).collect(block, first_seq: seq)
          seq += block.size
        end
      end

      def renderer
        @renderer ||= Reports.fetch(@format || "summary")
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
          "command" => (%w[ractorbench run] + @argv).shelljoin, "created_at" => Time.now.utc.iso8601,
          "seed" => plan.seed, "timeout" => timeout, "scale" => @plan.scale, "suite" => @plan.suite&.name,
          "reps" => @plan.adaptive&.to_s || plan.runs.map(&:rep).max,
          "machine" => Measure::Machine.describe, "rubies" => targets.map(&:to_h),
          "load" => catalog.files - Plan::Catalog.default.files, "plan" => plan.to_h
        }
      end

      def list(text)
        items = text.split(",").map(&:strip).reject(&:empty?)
        raise UsageError, "expected a comma-separated list, got #{text.inspect}" if items.empty?

        items
      end

      def seed(text)
        Integer(text, 10).tap { |n| raise ArgumentError if n.negative? }
      rescue ArgumentError
        raise UsageError, "--seed must be a non-negative integer, got #{text.inspect}"
      end
    end

    CLI.register("run", Run, "run a suite or a matrix of workloads x models x sizes x rubies")
  end
end
