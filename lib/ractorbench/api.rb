# frozen_string_literal: true

require "shellwords"
require "stringio"
require_relative "base/errors"
require_relative "collection"
require_relative "base/printable"
require_relative "plan/catalog"
require_relative "plan/options"
require_relative "plan/adaptive_reps"
require_relative "plan/shard"
require_relative "rubies/target"
require_relative "rubies/variants"
require_relative "analysis"
require_relative "reports/summary"
require_relative "commands/try"
require_relative "api/keywords"
require_relative "api/result"

module Ractorbench
  # ractorbench from Ruby code, as benchmark-ips is used:
  #
  #   require "ractorbench"
  #   result = Ractorbench.try(MyWork, items: 2_000, workers: [1, 2])
  #   result.recommendation  # => ["Recommendation: use ractors: ...", ...]
  #   result.speedups        # => [#<Speedup model="ractors" workers=2 speedup=1.8 low=1.6 high=1.9 ...>, ...]
  #
  #   Ractorbench.run(workloads: %w[fib], models: %w[serial ractors], workers: [1, 2], reps: 6)
  #   Ractorbench.read(result.path)  # the same Result again, from its results file
  #
  # Each call hands its keywords, checked as the command line's options are
  # (API::Keywords), to the same Collection the command line's commands use
  # (the same plan, runner, store and analysis), no command line built or
  # parsed; the header records the call. Its Result holds the Analysis the
  # collection read back from its results file, and what the command line
  # would print (result.text). Bad input raises Ractorbench::UsageError with
  # the command line's message, the keyword named instead of the option.
  module API
    module_function

    # work: a module (or class) with `work(item)` and optionally `items(n)`,
    # defined in a file (each run loads that file in a fresh process), or the
    # file's path. Keywords are try's options (`ractorbench help try`).
    def try(work, items: nil, workers: nil, reps: nil, models: nil, fibers: nil, timeout: nil, ruby: nil, seed: nil,
      output: nil, check: false, wait_quiet: nil)
      file, name = source(work)
      Keywords.flag(:fibers, fibers)
      Keywords.flag(:check, check)
      out = StringIO.new
      err = StringIO.new
      command = Keywords.call(:try, name || file.to_s.inspect, items: items, workers: workers, reps: reps, models: models,
        fibers: fibers, timeout: timeout, ruby: ruby, seed: seed, output: output, check: check, wait_quiet: wait_quiet)
      try = Commands::Try.with(file: file, command: command, out: out, err: err, module_name: name,
        items: items && Keywords.positive_integer(:items, items),
        workers: workers && Keywords.positive_integers(:workers, workers).uniq.sort,
        reps: reps ? Keywords.positive_integer(:reps, reps) : Advisor::SweepPlan::DEFAULT_REPS,
        models: models && Keywords.named(:models) { Keywords.names(:models, models) }, fibers: fibers,
        timeout: timeout ? Keywords.positive_float(:timeout, timeout) : Advisor::SweepPlan::DEFAULT_TIMEOUT,
        ruby: ruby && Keywords.text(:ruby, ruby), seed: seed && Keywords.seed(seed), output: output && Keywords.path(:output, output), check: check,
        quiet_wait: Keywords.quiet_wait(wait_quiet))
      code = Keywords.leading("--ruby", :ruby) { try.call }
      Result.new(kind: :try, path: try.results_path, exit_code: code, text: out.string, log: err.string, analysis: try.analysis)
    end

    # Keywords are run's options (`ractorbench help run`): lists as Arrays,
    # params and rubies as Hashes ({"n" => 24}, {"yjit" => "ruby --yjit"}).
    # Without workloads or a suite, run's defaults (prime, every model).
    def run(workloads: nil, models: nil, workers: nil, messages: nil, params: {}, suite: nil, scale: nil, reps: nil,
      rubies: {}, seed: nil, timeout: nil, output: nil, load: [], time: nil, first_run: nil, wait_quiet: nil, shard: nil, ruby_bench: nil)
      command = Keywords.call(:run, workloads: workloads, models: models, workers: workers, messages: messages, params: params,
        suite: suite, scale: scale, reps: reps, rubies: rubies, seed: seed, timeout: timeout, output: output, load: load,
        time: time, first_run: first_run, wait_quiet: wait_quiet, shard: shard, ruby_bench: ruby_bench)
      plan = Plan::Options.new
      plan.suite = Keywords.named(:suite) { Plan::Suite.fetch(Keywords.text(:suite, suite)) } if suite
      plan.ruby_bench = Keywords.as("--ruby-bench", :ruby_bench) { Plan::RubyBench.at(Keywords.path(:ruby_bench, ruby_bench)) } if ruby_bench
      plan.workloads = Keywords.names(:workloads, workloads) if workloads
      plan.models = Keywords.names(:models, models) if models
      plan.workers = Keywords.positive_integers(:workers, workers) if workers
      plan.messages = Keywords.positive_integers(:messages, messages) if messages
      plan.scale = Keywords.positive_float(:scale, scale) if scale
      Keywords.table(:params, params, '{"n" => 24}')
      Keywords.as("--param", :params) { params.each { |key, value| plan.add_param("#{key}=#{value}") } }
      plan.add_param("time=#{Keywords.positive_float(:time, time)}") if time
      repetitions(plan, reps)
      shard &&= Keywords.as("--shard", :shard) { Plan::Shard.parse(shard.to_s) }
      first_run &&= Keywords.as("--first-run", :first_run) { Analysis::FirstRun.parse(first_run.to_s) }
      catalog = plan.catalog(Plan::Catalog.default.with(Keywords.paths(:load, load)))
      entries = plan.entries(catalog)
      log = StringIO.new
      finish = Collection.new(catalog: catalog, entries: entries, rubies: targets(rubies, plan.suite), reps: plan.repetitions,
        command: command, output: output ? Keywords.path(:output, output) : Collection.default_path("ractorbench"), seed: seed && Keywords.seed(seed),
        timeout: timeout ? Keywords.positive_float(:timeout, timeout) : Collection::DEFAULT_TIMEOUT, shard: shard,
        adaptive: plan.adaptive, quiet_wait: Keywords.quiet_wait(wait_quiet), suite: plan.suite&.name, scale: plan.scale,
        header: plan.ruby_bench ? {"ruby_bench" => plan.ruby_bench.to_h} : {}, first_run: first_run || "auto",
        progress: log).call
      Result.new(kind: :run, path: finish.path, exit_code: finish.exit_status, text: summary(finish.analysis), log: log.string,
        analysis: finish.analysis)
    end

    # reps: a count, or "auto" / "auto:SECONDS" (--reps auto).
    def repetitions(plan, reps)
      return unless reps

      plan.adaptive = Keywords.as("--reps", :reps) { Plan::AdaptiveReps.parse(reps.to_s) }
      plan.reps = Keywords.positive_integer(:reps, reps) unless plan.adaptive
    end

    # rubies: names to commands; none, the running Ruby. A suite's settings
    # (YJIT, M:N, ...) make variants of each, as on the command line.
    def targets(rubies, suite)
      given = Keywords.table(:rubies, rubies, '{"yjit" => "ruby --yjit"}').map do |name, command|
        argv = Keywords.as("--ruby", :rubies) { Shellwords.split(command.to_s) }
        raise UsageError, "rubies: #{name} has no command; give NAME => COMMAND, e.g. rubies: {\"yjit\" => \"ruby --yjit\"}" if argv.empty?

        Rubies::Target.new(name: name.to_s, argv: argv)
      end
      Rubies::Variants.new.expand(given.empty? ? [Rubies::Target.current] : given, suite)
    end

    # The closing table `run` prints when its output is not a terminal.
    def summary(analysis) = Printable.terminal(Reports::Summary.render(analysis))

    # [file, module name] of a module with `work`, or [path, nil].
    def source(work)
      return [work.to_s, nil] if work.is_a?(String) || work.respond_to?(:to_path)
      raise UsageError, "Ractorbench.try takes a module with a `work(item)` method, or a file; got #{work.inspect}" unless work.is_a?(Module)
      raise UsageError, "Ractorbench.try needs a named module, got an anonymous one" if work.name.nil?
      raise UsageError, "#{work}.work is not defined: define `def self.work(item)` in #{work}" unless work.respond_to?(:work)

      file = work.method(:work).source_location&.first
      unless file && File.file?(file)
        raise UsageError, "#{work}.work was not defined in a file (each run loads the file in a fresh process): " \
          "move #{work} into a .rb file and require it"
      end

      [file, work.name]
    end
  end

  def self.try(...) = API.try(...)

  def self.run(...) = API.run(...)

  # A results file (of try, run or the tour) as the Result those return:
  # Ractorbench.read(result.path) gives a try's figures and recommendation again.
  def self.read(path) = API::Result.read(API::Keywords.path(:path, path))
end
