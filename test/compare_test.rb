# frozen_string_literal: true

require "test_helper"
require "synthetic_results"

# `ractorbench compare`, always through the real command line. The verdict
# cases use synthesized results files (fixed draws, so the verdicts cannot
# flake on a shared machine); one test compares two real collections of a
# fixture workload before and after a change.
class CompareTest < Minitest::Test
  include CLIHelper

  S = SyntheticResults
  SERIAL = ["nap", "serial", 2, 5, "ruby"].freeze
  THREADS = ["nap", "threads", 2, 5, "ruby"].freeze

  def setup
    @dir = Dir.mktmpdir
    @before = side("before.jsonl", serial: 0.100, seeds: [1, 2])
    @slower = side("slower.jsonl", serial: 0.120, seeds: [3, 4]) # the planted 20% slowdown, serial only
    @same = side("same.jsonl", serial: 0.100, seeds: [5, 6]) # fresh draws from before's distributions
  end

  def teardown
    FileUtils.rm_rf(@dir)
  end

  def side(name, serial:, seeds:)
    S.write(File.join(@dir, name), {SERIAL => S.draws(10, median: serial, seed: seeds[0]),
                                    THREADS => S.draws(10, median: 0.050, seed: seeds[1])})
  end

  def json(*args)
    result = ractorbench("compare", *args, "--format", "json")
    assert_includes [0, 1], result.code, result.err
    JSON.parse(result.out)
  end

  def test_finds_a_planted_twenty_percent_slowdown
    result = ractorbench("compare", @before, @slower)
    assert_equal 0, result.code, result.err
    serial = result.out.lines.find { |l| l.match?(/ serial /) }
    threads = result.out.lines.find { |l| l.match?(/ threads /) }
    assert_match(/\+19\.5%/, serial)
    refute_match(/~/, serial)
    assert_match(/~ \(/, threads, "threads did not change and must read ~")
    assert_match(/geomean/, result.out)
    # Each group of rows is named by its configuration but the model.
    assert_match(/^nap W=2 M=5 ruby +serial /, result.out)

    rows = json(@before, @slower)["against"].first["rows"]
    serial, threads = rows.partition { |r| r["key"][1] == "serial" }.map(&:first)
    assert_equal "slower", serial["verdict"]
    assert_equal "same", threads["verdict"]
    # R 4.2.2: wilcox.test(before$serial, slower$serial)$p.value = 1.0825088224469e-05 (exact, no ties),
    # for threads 0.393048128342246; p.adjust(c(...), "holm") = 2.16501764489381e-05, 0.393048128342246;
    # median(slower) / median(before) - 1 = 0.195417350417433.
    assert_in_delta 1.0825088224469e-05, serial["p"], 1e-15
    assert_in_delta 2.16501764489381e-05, serial["p_holm"], 1e-15
    assert_in_delta 0.393048128342246, threads["p_holm"], 1e-12
    assert_in_delta 0.195417350417433, serial["change"], 1e-12
    assert_operator serial["ratio_ci"]["low"], :>, 1.1
    assert_operator serial["ratio_ci"]["high"], :<, 1.3
  end

  def test_same_distribution_reads_no_detectable_change
    result = ractorbench("compare", @before, @same)
    assert_equal 0, result.code
    %w[serial threads].each { |m| assert_match(/ #{m} .*~ \(/, result.out) }
    # R 4.2.2: wilcox.test p-values 0.853428305440689 (serial), 0.911797181147026 (threads); Holm: 1, 1.
    rows = json(@before, @same)["against"].first["rows"]
    assert_equal %w[same same], rows.map { |r| r["verdict"] }
    assert_in_delta 0.853428305440689, rows.find { |r| r["key"][1] == "serial" }["p"], 1e-12
    assert_equal [1.0, 1.0], rows.map { |r| r["p_holm"] }
  end

  def test_fail_above_gates_ci_on_regressions_beyond_the_limit
    failing = ractorbench("compare", @before, @slower, "--fail-above", "10")
    assert_equal 1, failing.code
    assert_match(%r{REGRESSION nap/serial/w2/m5/ruby: \+19\.5% \(limit \+10%}, failing.err)

    assert_equal 0, ractorbench("compare", @before, @slower, "--fail-above", "25").code # slower, but within 25%
    assert_equal 0, ractorbench("compare", @before, @same, "--fail-above", "0").code # no significant change at all
  end

  def test_markdown_and_several_files
    md = ractorbench("compare", @before, @slower, @same, "--format", "markdown")
    assert_equal 0, md.code, md.err
    assert_match(/^### A = `before.jsonl`, B = `slower.jsonl`/, md.out)
    assert_match(/^### A = `before.jsonl`, B = `same.jsonl`/, md.out)
    assert_match(/^\| nap \| serial \| 2 \| 5 \| ruby \| .* \| \+19\.5% \|/, md.out)
    assert_match(/^\| \*\*geomean\*\* \|/, md.out)
    # Holm counts all four comparisons made at once
    assert_equal 4, json(@before, @slower, @same)["comparisons"]
  end

  def test_by_ruby_within_one_file
    path = S.two_rubies(File.join(@dir, "two-rubies.jsonl"))
    data = json(path, "--by", "ruby")
    assert_equal "ruby", data["baseline"]
    assert_equal ["yjit"], data["against"].map { |a| a["label"] }
    verdicts = data["against"].first["rows"].to_h { |r| [r["key"][1], r["verdict"]] }
    assert_equal({"serial" => "faster", "threads" => "same"}, verdicts)
    assert data["against"].first["rows"].all? { |r| r["ratio_ci"]["paired"] }, "one collection: repetitions are paired"

    reverse = json(path, "--by", "ruby", "--baseline", "yjit")
    assert_equal "slower", reverse["against"].first["rows"].find { |r| r["key"][1] == "serial" }["verdict"]
  end

  def test_bad_input_is_one_line_and_writes_nothing
    out = File.join(@dir, "out.txt")
    one_ruby = @before
    [
      [[@before], /compare needs two results files/],
      [[@before, @same, "--by", "ruby"], /--by ruby compares the Rubies of one results file; give one file, got 2/],
      [[@before, "--by", "model"], /--by takes ruby/],
      [[one_ruby, "--by", "ruby"], /has one Ruby \(ruby\); --by ruby compares/],
      [[@before, @same, "--baseline", "x"], /--baseline NAME goes with --by ruby/],
      [[@before, @same, "--fail-above", "lots"], /--fail-above takes a percentage/],
      [[@before, @same, "--alpha", "2"], /--alpha must be a number between 0 and 1/],
      [[@before, @same, "--time", "cpu"], /--time must be messages or whole/],
      [[@before, @same, "--format", "html"], /unknown format "html" for compare/],
      [[@before, File.join(@dir, "missing.jsonl")], /cannot read .*missing.jsonl: no such file/]
    ].each do |args, pattern|
      assert_usage_error(ractorbench("compare", *args, "-o", out), pattern)
      refute File.exist?(out), "#{args.inspect} wrote #{out}"
    end

    other = S.write(File.join(@dir, "other.jsonl"), {["fib", "serial", 1, 1, "ruby"] => [1.0, 1.1]})
    assert_usage_error(ractorbench("compare", @before, other), /no configuration .* has successful runs on both sides/)
  end

  def test_too_few_runs_is_said_with_what_to_do
    few = S.write(File.join(@dir, "few.jsonl"), {SERIAL => [0.1, 0.11, 0.1], THREADS => [0.05, 0.05, 0.06]})
    result = ractorbench("compare", few, few, "--fail-above", "5")
    assert_equal 0, result.code
    assert_match(/too few runs for any change to count, however large .*: run each side with --reps 5 or more/, result.out)
    assert_match(/--fail-above 5: some configurations have too few runs/, result.err)
    # Halved time, but 3 runs a side: "too few runs to tell", never "no detectable change".
    halved = S.write(File.join(@dir, "halved.jsonl"), {SERIAL => [0.05, 0.055, 0.05], THREADS => [0.05, 0.05, 0.06]})
    verdicts = json(few, halved)["against"].first["rows"].map { |r| r["verdict"] }
    assert_equal %w[too_few too_few], verdicts
    assert_match(/ serial .* \? \(-50\.0%\) /, ractorbench("compare", few, halved).out)
  end

  # Two real collections of the nap fixture: the code before a change and
  # after it. No verdict is asserted (timing on a shared machine); what must
  # hold is that real files pair up configuration by configuration.
  def test_two_real_collections_compare_configuration_by_configuration
    before = File.join(@dir, "real-before.jsonl")
    after = File.join(@dir, "real-after.jsonl")
    [[fixture("nap_before.rb"), before], [fixture("nap_after.rb"), after]].each do |file, out|
      run = ractorbench("run", "--load", file, "-w", "nap", "-m", "serial,threads", "--workers", "2", "--messages", "2",
        "--reps", "4", "-o", out)
      assert_equal 0, run.code, run.err
    end
    result = ractorbench("compare", before, after, "--format", "json")
    # 3: this shared machine disturbed most runs of a side, so nothing is judged.
    assert_includes [0, 3], result.code, result.err
    data = JSON.parse(result.out)
    assert_equal result.code == 3, !data["inconclusive"].nil?
    rows = data["against"].first["rows"]
    assert_equal [%w[nap serial], %w[nap threads]], rows.map { |r| r["key"].first(2) }
    rows.each do |r|
      model = r["key"][1]
      assert_equal [counted_runs(before, model: model), counted_runs(after, model: model)], [r["a"]["samples"], r["b"]["samples"]]
      assert_includes %w[slower faster same too_few disturbed], r["verdict"]
    end
    assert_empty data["warnings"].grep(/different results/), "both versions compute the same digests"
  end
end
