# frozen_string_literal: true

require "stringio"
require_relative "errors"
require_relative "commands/run"
require_relative "commands/tour"
require_relative "commands/try"
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
  # Each call runs the command line's own command (the same options, plan,
  # runner, store and analysis; its output captured in result.text) and
  # reads the results file back. Bad input raises Ractorbench::UsageError
  # with the message the command line would print.
  module API
    module_function

    # work: a module (or class) with `work(item)` and optionally `items(n)`,
    # defined in a file (each run loads that file in a fresh process), or the
    # file's path. Keywords are try's options (`ractorbench help try`).
    def try(work, items: nil, workers: nil, reps: nil, models: nil, fibers: nil, timeout: nil, ruby: nil, seed: nil,
      output: nil, check: false, wait_quiet: nil)
      file, name = source(work)
      argv = [file, *option("--module", name), *option("--items", items), *option("--workers", list(workers)),
        *option("--reps", reps), *option("--models", list(models)), *option("--timeout", timeout), *option("--ruby", ruby),
        *option("--seed", seed), *option("-o", output), *wait(wait_quiet)]
      argv << (fibers ? "--fibers" : "--no-fibers") unless fibers.nil?
      argv << "--check" if check
      execute(Commands::Try, argv, kind: :try)
    end

    # Keywords are run's options (`ractorbench help run`): lists as Arrays,
    # params and rubies as Hashes ({"n" => 24}, {"yjit" => "ruby --yjit"}).
    # Without workloads or a suite, run's defaults (prime, every model).
    def run(workloads: nil, models: nil, workers: nil, messages: nil, params: {}, suite: nil, scale: nil, reps: nil,
      rubies: {}, seed: nil, timeout: nil, output: nil, load: [], time: nil, first_run: nil, wait_quiet: nil, shard: nil, ruby_bench: nil)
      argv = [*option("--suite", suite), *option("--ruby-bench", ruby_bench), *option("--workloads", list(workloads)), *option("--models", list(models)),
        *option("--workers", list(workers)), *option("--messages", list(messages)), *option("--scale", scale),
        *option("--reps", reps), *option("--seed", seed), *option("--timeout", timeout), *option("-o", output),
        *option("--time", time), *option("--first-run", first_run), *option("--shard", shard), *wait(wait_quiet)]
      params.each { |key, value| argv.push("--param", "#{key}=#{value}") }
      rubies.each { |name, command| argv.push("--ruby", "#{name}=#{command}") }
      Array(load).each { |file| argv.push("--load", file) }
      execute(Commands::Run, argv, kind: :run)
    end

    def execute(command_class, argv, kind:)
      out = StringIO.new
      err = StringIO.new
      command = command_class.new(argv, out: out, err: err)
      code = command.call
      Result.new(kind: kind, path: command.results_path, exit_code: code, text: out.string, log: err.string)
    end

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

    def option(name, value) = value.nil? ? [] : [name, value.to_s]

    def list(values) = values && Array(values).join(",")

    def wait(value)
      return [] if value.nil? || value == false

      (value == true) ? ["--wait-quiet"] : ["--wait-quiet=#{value}"]
    end
  end

  def self.try(...) = API.try(...)

  def self.run(...) = API.run(...)

  # A results file (of try, run or the tour) as the Result those return:
  # Ractorbench.read(result.path) gives a try's figures and recommendation again.
  def self.read(path) = API::Result.read(path)
end
