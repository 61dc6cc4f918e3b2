# frozen_string_literal: true

require "test_helper"

# `run --shard I/N` and `merge`: a plan in slices run anywhere, joined again.
# The slices of a plan, merged, are the plan: the same run ids, each once,
# computing the same digests as the whole plan run at once.
class ShardMergeTest < Minitest::Test
  include CLIHelper
  include TempDir

  PLAN = ["-w", "fib,tarai", "-m", "serial,threads,ractors", "--workers", "1,2", "--reps", "2", "--scale", "0.001",
    "--seed", "99"].freeze

  def run_plan(out, *extra)
    result = ractorbench("run", *PLAN, *extra, "-o", out, "--format", "csv")
    assert_equal 0, result.code, result.err
    result
  end

  def test_shards_merged_are_the_unsharded_plan_every_run_once_with_the_same_digests
    whole = File.join(@dir, "whole.jsonl")
    run_plan(whole)
    shards = (1..3).map do |i|
      path = File.join(@dir, "shard#{i}.jsonl")
      result = run_plan(path, "--shard", "#{i}/3")
      assert_match(%r{shard #{i}/3 of a plan of 24}, result.err)
      path
    end
    plan_ids = Ractorbench::Plan::Matrix.from_h(results_lines(whole).first["plan"]).runs.map(&:id)
    assert_equal 24, plan_ids.uniq.size

    headers = shards.map { |s| results_lines(s).first }
    assert_equal [1, 2, 3], headers.map { |h| h["shard"]["index"] }
    assert_equal [3], headers.map { |h| h["shard"]["count"] }.uniq
    assert_equal 1, headers.map { |h| h["shard"]["plan"] }.uniq.size, "the shards name one plan"
    shard_ids = shards.map { |s| runs_in(s).map { |r| r["id"] } }
    shard_ids.combination(2).each { |a, b| assert_empty a & b, "a run is in two shards" }

    merged = File.join(@dir, "all.jsonl")
    result = ractorbench("merge", *shards, "-o", merged)
    assert_equal 0, result.code, result.err
    assert_match(/merged 24 runs of 3 files \(1 machine: /, result.err)
    merged_runs = runs_in(merged)
    assert_equal plan_ids.sort, merged_runs.map { |r| r["id"] }.sort, "every run of the plan exactly once"
    assert_equal plan_ids.sort, Ractorbench::Plan::Matrix.from_h(results_lines(merged).first["plan"]).runs.map(&:id).sort
    assert_equal results_lines(whole).first["plan"], results_lines(merged).first["plan"], "the shards' recipe, whole"
    assert merged_runs.all? { |r| r["status"] == "ok" }
    whole_digests = runs_in(whole).to_h { |r| [r["id"], r["digest"]] }
    assert_equal whole_digests, merged_runs.to_h { |r| [r["id"], r["digest"]] }
    sources = results_lines(merged).first["merged"]["sources"]
    assert_equal %w[shard1.jsonl shard2.jsonl shard3.jsonl], sources.map { |s| s["file"] }
    assert_equal [1, 2, 3], sources.map { |s| s["header"]["shard"]["index"] }

    # The merged file is an ordinary results file.
    report = ractorbench("report", merged, "--format", "csv")
    assert_equal 0, report.code, report.err
    assert_equal 12, report.out.lines.size - 1
    # A file of the whole plan on another machine joins it side by side;
    # the same machine's runs twice do not.
    twice = ractorbench("merge", merged, whole, "-o", File.join(@dir, "twice.jsonl"))
    assert_usage_error(twice, /both hold run .* of one machine/)
    refute File.exist?(File.join(@dir, "twice.jsonl"))
  end

  # Adding a Ruby adds runs to the shards and moves none of the others.
  def test_a_run_stays_in_its_shard_whatever_else_the_plan_holds
    entries = [Ractorbench::Plan::Entry.new(workload: "fib", models: %w[serial threads], configs: [[1, 1], [2, 1]], params: {})]
    one = Ractorbench::Plan::Matrix.build(entries: entries, rubies: %w[a], reps: 3, seed: 1)
    two = Ractorbench::Plan::Matrix.build(entries: entries, rubies: %w[a b], reps: 3, seed: 2)
    (1..3).each do |i|
      shard = Ractorbench::Plan::Shard.new(i, 3)
      assert_equal shard.select(one.runs).map(&:id).sort, shard.select(two.runs).map(&:id).grep(%r{/a/}).sort
    end
    assert_equal one.runs.size, (1..3).sum { |i| Ractorbench::Plan::Shard.new(i, 3).select(one.runs).size }
    assert_equal Ractorbench::Plan::Shard.fingerprint(one.runs), Ractorbench::Plan::Shard.fingerprint(two.runs),
      "the plan, Rubies aside, is one plan"
  end

  def test_bad_shards_are_one_line_and_nothing_runs
    out = File.join(@dir, "r.jsonl")
    {"0/3" => /--shard 0\/3: I must be from 1 to 3/, "4/3" => /--shard 4\/3: I must be from 1 to 3/,
     "a/b" => /--shard takes I\/N.*got "a\/b"/, "1/0" => /N \(the number of slices\) must be 1 or more/}.each do |text, pattern|
      result = ractorbench("run", "-w", "noop", "--shard", text, "-o", out)
      assert_usage_error(result, pattern)
      refute File.exist?(out), "--shard #{text} wrote a file"
    end
    assert_usage_error(ractorbench("run", "-w", "noop", "--shard", "1/2", "--reps", "auto", "-o", out), /--shard and --reps auto/)
  end

  def test_bad_merges_are_one_line_and_write_nothing
    a = File.join(@dir, "a.jsonl")
    b = File.join(@dir, "b.jsonl")
    ractorbench("run", "-w", "noop", "-m", "serial,threads", "--reps", "2", "--shard", "1/2", "-o", a)
    ractorbench("run", "-w", "noop", "-m", "serial", "--reps", "2", "-o", b)
    out = File.join(@dir, "all.jsonl")
    damaged = File.join(@dir, "damaged.jsonl")
    File.write(damaged, File.read(a) + "{\"type\": \"run\", \"id\": 3}\n")
    cut = File.join(@dir, "cut.jsonl")
    File.write(cut, File.read(a) + "{\"type\": \"run\", \"id\": \"noop/ser")
    foreign = File.join(@dir, "notes.jsonl")
    File.write(foreign, "hello\n")
    {
      [a, b] => /b\.jsonl is from another plan than .*a\.jsonl \(2 runs of noop, against 4 runs of noop\)/,
      [a, a] => /a\.jsonl is given twice: merge each results file once/,
      [a, File.join(@dir, ".", "a.jsonl")] => /is given twice \(as .*a\.jsonl\)/,
      [a, damaged] => /damaged\.jsonl is damaged \(line \d+: id is not a non-empty string\); merge takes whole results files only/,
      [a, cut] => /cut\.jsonl ends in a cut-off line .*run --resume/,
      [a, foreign] => /notes\.jsonl is not a ractorbench results file/,
      [a, File.join(@dir, "missing.jsonl")] => /cannot read .*missing\.jsonl: no such file/,
      [a] => /merge needs two or more results files/
    }.each do |files, pattern|
      assert_usage_error(ractorbench("merge", *files, "-o", out), pattern)
      refute File.exist?(out), "merge #{files.map { |f| File.basename(f) }.join(" ")} wrote a file"
    end
    assert_usage_error(ractorbench("merge", a, b), /add -o FILE/)
    assert_usage_error(ractorbench("merge", a, cut, "-o", a), /-o .*a\.jsonl is .*a\.jsonl, an input/)
    assert_usage_error(ractorbench("run", "--resume", out), /cannot resume/) # nothing was written to resume
  end

  # The shipped workflow: a matrix of Rubies x every shard of SHARDS, each
  # uploading its file; a last job that merges them all and reports.
  def test_the_github_actions_example_shards_every_ruby_and_merges
    require "yaml"
    flow = YAML.safe_load_file(File.join(ROOT, "docs", "ci", "github-actions.yml"))
    measure = flow.fetch("jobs").fetch("measure")
    matrix = measure.dig("strategy", "matrix")
    assert_equal (1..Integer(flow.dig("env", "SHARDS"))).to_a, matrix.fetch("shard")
    assert_operator matrix.fetch("ruby").size, :>=, 2
    steps = measure.fetch("steps")
    assert(steps.any? { |s| s["uses"].to_s.start_with?("ruby/setup-ruby") && s.dig("with", "ruby-version") == "${{ matrix.ruby }}" })
    run = steps.map { |s| s["run"].to_s }.find { |r| r.include?("ractorbench run") }
    assert_includes run, "--shard ${{ matrix.shard }}/$SHARDS"
    assert(steps.any? { |s| s["uses"].to_s.start_with?("actions/upload-artifact") })
    report = flow.fetch("jobs").fetch("report")
    assert_equal "measure", report.fetch("needs")
    commands = report.fetch("steps").map { |s| s["run"].to_s }.join("\n")
    assert_includes commands, "ractorbench merge results/*.jsonl -o all.jsonl"
    assert_includes commands, "report all.jsonl --by ruby"
  end
end
