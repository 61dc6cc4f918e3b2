# frozen_string_literal: true

require_relative "test_helper"

# `run --ruby-bench DIR` and `list --ruby-bench DIR` on a checkout written for
# these tests in ruby-bench's layout (test/fixtures/ruby_bench: a
# benchmarks.yml with `ractor:` keys, a loader that requires "harness", small
# benchmarks calling run_benchmark; none of ruby-bench's code). Real CLI,
# real children, real ractors, threads and forks.
class RubyBenchTest < Minitest::Test
  include CLIHelper
  include TempDir

  CHECKOUT = File.join(FIXTURES, "ruby_bench")
  MODELS = %w[serial threads processes ractors].freeze
  RUBY_4_0 = "/opt/rubies/ruby-4.0.0/bin/ruby"
  RUBY_3_4 = "/opt/rubies/ruby-3.4.0/bin/ruby"

  def collect(*args, name: "rb.jsonl")
    out = File.join(@dir, name)
    result = ractorbench("run", "--ruby-bench", CHECKOUT, "--reps", "1", *args, "-o", out)
    [result, runs_in(out)]
  end

  def benchmark(run) = run.dig("params", "benchmark")

  def test_list_names_the_ractor_capable_benchmarks_and_what_each_needs
    result = ractorbench("list", "--ruby-bench", CHECKOUT)
    assert_equal 0, result.code, result.err
    names = result.out.lines.grep(/^  \S/).map { |l| l.split.first }
    assert_equal %w[datafile dice fib gemmy ractor-value split whoami], names.sort
    refute_match(/^  plain\b/, result.out, "a benchmark without `ractor: true` is not listed")
    assert_match(%r{^  split .*Ractor-only.*benchmarks/split/benchmark\.rb}, result.out)
    assert_match(%r{^  gemmy .*gems: benchmarks/gemmy/Gemfile}, result.out)
    assert_match(%r{^  fib .*benchmarks/fib\.rb}, result.out)
    # Without --ruby-bench, the workload is listed with the others.
    assert_match(/^  ruby-bench\s+.*--ruby-bench DIR/, ractorbench("list").out)
  end

  def test_a_folder_that_is_not_a_ruby_bench_checkout_is_one_line_and_exit_2
    missing = File.join(@dir, "nowhere")
    assert_usage_error ractorbench("run", "--ruby-bench", missing), /--ruby-bench .*nowhere: no such folder/
    assert_usage_error ractorbench("list", "--ruby-bench", @dir), /is not a ruby-bench checkout: it has no benchmarks\.yml/

    File.write(File.join(@dir, "benchmarks.yml"), "fib:\n  ractor: true\n")
    assert_usage_error ractorbench("run", "--ruby-bench", @dir), %r{not a ruby-bench checkout: its harness/loader\.rb does not pick}
    FileUtils.mkdir_p(File.join(@dir, "harness"))
    File.write(File.join(@dir, "harness", "loader.rb"), "require 'harness'\n")
    File.write(File.join(@dir, "benchmarks.yml"), "fib:\n  desc: [unclosed\n")
    assert_usage_error ractorbench("run", "--ruby-bench", @dir), /benchmarks\.yml cannot be read/
    File.write(File.join(@dir, "benchmarks.yml"), "fib:\n  desc: no ractor key\n")
    assert_usage_error ractorbench("run", "--ruby-bench", @dir), /marks no benchmark `ractor: true`/

    assert_usage_error ractorbench("run", "--ruby-bench", CHECKOUT, "-w", "plain"), /plain is not marked `ractor: true`/
    assert_usage_error ractorbench("run", "--ruby-bench", CHECKOUT, "-w", "nqueens"), /no ruby-bench benchmark "nqueens".*Ractor-capable ones: fib, split, gemmy/
    assert_usage_error ractorbench("run", "--ruby-bench", CHECKOUT, "--suite", "basic-benchmarking"), /do not mix/
    assert_usage_error ractorbench("run", "-w", "ruby-bench"), /give --ruby-bench DIR/
    refute File.exist?(File.join(@dir, "rb.jsonl"))
  end

  # Each model runs the block W times (serial in turn, one per thread, fork
  # or ractor) at W = 1 and 2; every block's value is digested and every
  # model computes the same. The Ractor-only benchmark splits its work by W,
  # so its result differs between W but never between models.
  def test_every_model_runs_the_blocks_at_w1_and_w2_and_their_values_agree
    result, runs = collect("-w", "fib,split", "--workers", "1,2", "-m", MODELS.join(","))
    assert_equal 0, result.code, result.err + result.out
    assert_equal 2 * MODELS.size * 2, runs.size
    runs.each do |run|
      assert_equal "ok", run["status"], "#{run["id"]}: #{run["reason"]}"
      assert_equal "compared", run["values"], run["id"]
      assert_equal [1] * run["workers"], run["worker_jobs"], "#{run["id"]}: one block per worker"
      assert_operator run["workers_created_at_s"], :<, 0, "#{run["id"]}: workers made before the clock"
      assert_equal "untimed", run["creation"]
    end
    digests = runs.group_by { |r| [benchmark(r), r["workers"]] }.transform_values { |rs| rs.map { |r| r["digest"] }.uniq }
    digests.each { |key, list| assert_equal 1, list.size, "#{key}: every model computes the same" }
    refute_equal digests[["split", 1]], digests[["split", 2]], "split's share depends on W"
    assert_equal digests[["fib", 1]], digests[["fib", 2]], "fib's block is the same at any W"
    # A forked worker's GC is its own; serial's main is one worker at a time.
    assert runs.select { |r| %w[processes serial].include?(r["model"]) }.all? { |r| r["gc_scope"] == "process" }
    assert(runs.select { |r| r["model"] == "processes" }.all? { |r| r["worker_gc_count"].size == r["workers"] })
    assert(runs.select { |r| r["model"] == "threads" }.none? { |r| r.key?("worker_gc_count") }, "threads share the process's GC")
    # A ractor's own GC only where GC.stat takes scope: (per-ractor GC), as the child's Ruby (this one) says.
    per_ractor = GC.method(:stat).parameters.any? { |_, name| name == :scope }
    runs.select { |r| r["model"] == "ractors" }.each do |run|
      assert_equal (per_ractor ? "ractor" : "none"), run["gc_scope"] || "none", run["id"]
      assert_equal per_ractor, run.key?("worker_gc_count"), run["id"]
    end
    assert_match(/ruby-bench \(benchmark=split\)/, result.out)
  end

  def test_the_timed_part_includes_creation_only_with_creation_timed
    _, runs = collect("-w", "fib", "--workers", "2", "-m", MODELS.join(","), "--param", "creation=timed", "--param", "warmup=2")
    assert_equal MODELS.sort, runs.map { |r| r["model"] }.sort
    runs.each do |run|
      assert_equal "ok", run["status"], "#{run["id"]}: #{run["reason"]}"
      assert_equal "timed", run["creation"]
      assert_operator run["workers_created_at_s"], :>=, 0, "#{run["id"]}: workers made inside the clock"
      assert_equal "compared", run["values"]
    end
  end

  def test_what_cannot_run_says_why
    result, runs = collect("-w", "gemmy,datafile", "--workers", "1", "-m", "serial,ractors")
    assert_equal 0, result.code, result.err
    assert_equal 4, runs.size
    assert(runs.all? { |r| r["status"] == "unsupported" }, runs.map { |r| r["reason"] }.inspect)
    gemmy = runs.select { |r| benchmark(r) == "gemmy" }.map { |r| r["reason"] }.uniq
    assert_equal 1, gemmy.size
    assert_match(/\Anot supported on this Ruby: needs gems this Ruby lacks \(Could not find gem 'ractorbench-fixture-absent-gem'/, gemmy.first)
    assert_match(%r{bundle install}, gemmy.first)
    datafile = runs.select { |r| benchmark(r) == "datafile" }.map { |r| r["reason"] }.uniq
    assert_equal ["not measured: needs benchmarks/datafile/missing.bin, which is missing from the checkout"], datafile
    assert_match(%r{not run: ruby-bench \(benchmark=gemmy\)/serial}, result.out)
  end

  # Every worker runs the same block on the same arguments, so workers that
  # disagree are a wrong result; a value that changes from call to call
  # within one worker cannot be compared, and is not.
  def test_block_values_are_checked_across_workers_where_they_can_be
    result, runs = collect("-w", "whoami,dice", "--workers", "2", "-m", MODELS.join(","))
    assert_equal 1, result.code
    whoami = runs.select { |r| benchmark(r) == "whoami" }.to_h { |r| [r["model"], r] }
    assert_equal "ok", whoami["serial"]["status"], "one process, one thread: the same value"
    %w[threads processes ractors].each do |model|
      assert_equal "wrong_result", whoami[model]["failure"], model
      assert_match(/the workers' blocks returned 2 different values/, whoami[model]["reason"])
    end
    dice = runs.select { |r| benchmark(r) == "dice" }
    assert(dice.all? { |r| r["status"] == "ok" && r["digest"].nil? }, dice.map { |r| [r["model"], r["status"], r["reason"]] }.inspect)
    assert(dice.all? { |r| r["values"].start_with?("not compared: a worker's block returned different values") })
  end

  # Ruby 4.0 has Ractor#value; 3.4 has take: a benchmark that calls #value
  # runs on one and gives "not supported" rows naming why on the other; the
  # others run under every model on both and agree across them.
  def test_ruby_4_0_and_3_4
    rubies = [RUBY_4_0, RUBY_3_4].select { |r| File.executable?(r) }
    skip "neither #{RUBY_4_0} nor #{RUBY_3_4} is installed (../shared/rubies/install.sh)" if rubies.empty?

    result, runs = collect("-w", "fib,split,ractor-value", "--workers", "1,2", "-m", MODELS.join(","),
      *rubies.flat_map { |r| ["--ruby", r] })
    assert_equal 0, result.code, result.err + result.out
    by_ruby = runs.group_by { |r| r["ruby"] }
    assert_equal rubies.size, by_ruby.size
    by_ruby.each do |ruby, list|
      value = ruby == RUBY_4_0 # the Ruby with Ractor#value
      list.each do |run|
        expected = (benchmark(run) == "ractor-value" && !value) ? "unsupported" : "ok"
        assert_equal expected, run["status"], "#{run["id"]}: #{run["reason"]}"
        assert_match(/Ractor#value, which this Ruby's Ractor lacks/, run["reason"]) if expected == "unsupported"
      end
      variant = list.find { |r| r["model"] == "ractors" && r["status"] == "ok" }["variant"]
      assert_includes variant, value ? "Ractor#value" : "Ractor#take"
    end
    ok = runs.select { |r| r["status"] == "ok" }
    ok.group_by { |r| [benchmark(r), r["workers"]] }.each do |key, list|
      assert_equal 1, list.map { |r| r["digest"] }.uniq.size, "#{key}: every model on every Ruby computes the same"
    end
  end

  # From Ruby, the same run: Ractorbench.run(ruby_bench: DIR, ...).
  def test_from_ruby
    result = Ractorbench.run(ruby_bench: CHECKOUT, workloads: %w[fib], models: %w[serial ractors], workers: [2], reps: 1,
      output: File.join(@dir, "api.jsonl"))
    assert_equal [["ractors", 2]], result.speedups.map { |s| [s.model, s.workers] }
    assert_equal 2, runs_in(result.path).count { |r| r["status"] == "ok" && r.dig("params", "benchmark") == "fib" }
  end

  # The header keeps the checkout, so --resume runs what is left with the
  # checkout's loader, as the collection did.
  def test_resume_runs_the_rest_with_the_same_checkout
    out = File.join(@dir, "rb.jsonl")
    result = ractorbench("run", "--ruby-bench", CHECKOUT, "-w", "fib", "--workers", "1", "-m", "serial,ractors", "--reps", "1", "-o", out)
    assert_equal 0, result.code, result.err
    lines = File.readlines(out)
    assert_equal File.realpath(CHECKOUT), JSON.parse(lines.first).dig("ruby_bench", "dir")
    File.write(out, lines[0...-1].join)
    resumed = ractorbench("run", "--resume", out)
    assert_equal 0, resumed.code, resumed.err
    assert_match(/1 run done, 1 to go/, resumed.err)
    runs = runs_in(out)
    assert_equal 2, runs.size
    assert(runs.all? { |r| r["status"] == "ok" }, runs.map { |r| r["reason"] }.inspect)
    assert_usage_error ractorbench("run", "--resume", out, "--ruby-bench", CHECKOUT), /takes no plan options \(got --ruby-bench\)/
  end
end
