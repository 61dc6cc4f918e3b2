# frozen_string_literal: true

require_relative "test_helper"
require_relative "../examples/json_parse"

# Ractorbench.try and Ractorbench.run from Ruby code go through the command
# line's own commands: on the same seed they plan the same runs, in the same
# order, under the same ids, and the models compute the same results
# (digests) as the CLI's; timings are never compared. Each returns a result
# with the rows, the speedups with their intervals, the verdict in words
# and the results file.
class APITest < Minitest::Test
  include CLIHelper
  include TempDir

  # What must agree between two collections of the same plan. try's
  # seconds_per_item is the check's measured time per item (it decides how
  # coarse items are handed out), so it differs from one try to the next.
  def shape(path)
    header, *lines = results_lines(path)
    runs = lines.select { |r| r["type"] == "run" }
    timing = /,?seconds_per_item=[\d.e-]+/
    plan = Ractorbench::Plan::Matrix.from_h(header["plan"]).runs.map { |r| r.to_h.merge("params" => r.params.transform_keys(&:to_s).except("seconds_per_item")) }
    {plan: plan, seed: header["seed"], ids: runs.map { |r| r["id"].gsub(timing, "") },
     outcome: runs.to_h { |r| [r["id"].gsub(timing, ""), [r["status"], r["digest"], r["results"]]] }}
  end

  def test_run_matches_the_cli_on_the_same_seed
    cli = File.join(@dir, "cli.jsonl")
    result = ractorbench("run", "-w", "tarai", "-m", "serial,threads,ractors", "--param", "x=6", "--workers", "1,2",
      "--messages", "2", "--reps", "2", "--seed", "42", "-o", cli)
    assert_equal 0, result.code, result.err

    api = Ractorbench.run(workloads: %w[tarai], models: %w[serial threads ractors], params: {"x" => 6}, workers: [1, 2],
      messages: [2], reps: 2, seed: 42, output: File.join(@dir, "api.jsonl"))
    assert_equal File.join(@dir, "api.jsonl"), api.path
    assert_equal 0, api.exit_code
    assert api.ok?
    assert_equal shape(cli), shape(api.path)

    # The API's rows are report's figures of the same file (runs another
    # program disturbed stay out of both, so two collections' counts differ).
    report = JSON.parse(ractorbench("report", api.path, "--format", "json").out)["configurations"]
    keys = %w[workload model workers messages params ruby samples]
    assert_equal report.map { |c| c.slice(*keys) }, api.rows.map { |r| keys.to_h { |k| [k, r[k]] } }
    assert_equal 4, api.speedups.size, "threads and ractors at W=1 and W=2"
    api.speedups.each do |s|
      assert_operator s.speedup, :>, 0
      assert_equal counted_runs(api.path, model: s.model, workers: s.workers), s.samples
      assert_nil s.low, "2 runs: no bootstrap interval"
      refute s.interval?, "and the predicate says so before anything reads it"
      assert_nil s.interval
      assert_match(/\A\d+\.\d\d× \(n=#{s.samples}: no interval under 6 runs\)\z/, s.to_s)
    end
    refute_empty api.recommendation
    # On a busy machine the verdict is withheld, and says so.
    assert_match(/\A(tarai \(x=6\) W=\d M=2 ruby: \w+ fastest, |INCONCLUSIVE: the machine was busy)/, api.recommendation.first)
    assert_match(/Digests agree/, api.text, "the closing text the command printed")
  end

  def test_try_matches_the_cli_on_the_same_seed
    cli = File.join(@dir, "cli.jsonl")
    result = ractorbench("try", File.join(ROOT, "examples", "json_parse.rb"), "--items", "60", "--workers", "1,2",
      "--reps", "2", "--models", "threads,ractors", "--seed", "7", "-o", cli)
    assert_includes [0, 1], result.code, result.out + result.err

    api = Ractorbench.try(JsonParse, items: 60, workers: [1, 2], reps: 2, models: %w[threads ractors], seed: 7,
      output: File.join(@dir, "api.jsonl"))
    assert_equal result.code, api.exit_code
    assert_equal shape(cli), shape(api.path)
    assert_equal %w[ractors ractors threads threads], api.speedups.map(&:model).sort
    assert_equal [1, 2], api.speedups.map(&:workers).uniq.sort
    assert_match(/\ARecommendation: /, api.recommendation.first)
    assert_includes result.out, api.recommendation.first.split(":").first, "the same recommendation the CLI printed"
    assert_match(/JsonParse\.work on 60 items/, api.text)
    assert_empty api.diagnoses

    # The file alone gives the same Result again, bar what it does not keep.
    read = Ractorbench.read(api.path)
    assert_equal [:try, api.path, nil, nil], [read.kind, read.path, read.exit_code, read.ok?]
    assert_equal api.recommendation, read.recommendation
    assert_equal api.speedups, read.speedups
  end

  # From 6 runs a speedup has its interval, and says so the same way.
  def test_a_recorded_speedup_of_six_runs_has_its_interval
    best = Ractorbench.read(File.join(ROOT, "examples", "results", "try_slow_service.jsonl")).speedups.max_by(&:speedup)
    assert best.interval?
    assert_equal [best.low, best.high], best.interval
    assert_match(/\A\d\.\d\d× \[\d\.\d\d, \d\.\d\d\] \(n=6\)\z/, best.to_s)
  end

  def test_bad_input_raises_the_clis_message
    error = assert_raises(Ractorbench::UsageError) { Ractorbench.run(workloads: %w[nope], output: File.join(@dir, "x.jsonl")) }
    assert_match(/unknown workload "nope"/, error.message)
    error = assert_raises(Ractorbench::UsageError) { Ractorbench.try(Module.new) }
    assert_match(/named module/, error.message)
    error = assert_raises(Ractorbench::UsageError) { Ractorbench.try(Comparable) }
    assert_match(/Comparable\.work is not defined/, error.message)
    refute File.exist?(File.join(@dir, "x.jsonl")), "nothing written"
  end

  def test_try_check_only_finds_what_the_cli_finds
    require_relative "../examples/unsafe_cache"
    api = Ractorbench.try(UnsafeCache, check: true)
    cli = ractorbench("try", File.join(ROOT, "examples", "unsafe_cache.rb"), "--check")
    assert_equal cli.code, api.exit_code
    assert_nil api.path
    assert_match(/^ractors: cannot run this work: not Ractor-safe$/, api.text)
    assert_equal cli.out.lines.first, api.text.lines.first
  end
end
