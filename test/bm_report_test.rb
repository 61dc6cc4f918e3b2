# frozen_string_literal: true

require "test_helper"

# --format bm: the seeds' Benchmark.bm table with a ">times faster:" row per
# model, "-" where a column's denominator is 0 (Benchmark prints NaN).
class BmReportTest < Minitest::Test
  include CLIHelper

  NUMBER = '\d+\.\d{6}'

  def setup
    @dir = Dir.mktmpdir
    @out = File.join(@dir, "r.jsonl")
  end

  def teardown
    FileUtils.rm_rf(@dir)
  end

  def collect(*args)
    result = ractorbench("run", "--reps", "2", "--workers", "2", "--messages", "1", *args, "-o", @out)
    assert_equal 0, result.code, result.err
    result
  end

  def test_user_system_total_real_per_model_and_times_faster
    result = collect("-w", "tarai", "-m", "serial,threads", "--param", "x=8", "--param", "y=4", "--param", "z=0", "--format", "bm")
    lines = result.out.lines.map(&:chomp)
    assert(lines.any? { |l| l =~ /\A\s+user\s+system\s+total\s+real\z/ }, result.out)
    assert_includes lines, lines.find { |l| l.start_with?("tarai (x=8,y=4,z=0) W=2 M=1 ruby [YJIT ") && l.end_with?("baseline serial") }
    # n=1 (no spread) when the busy machine disturbed one of the two runs.
    %w[serial threads].each do |model|
      assert(lines.any? { |l| l =~ /\A#{model}\s+#{NUMBER} +#{NUMBER} +#{NUMBER} \( *#{NUMBER}\)  n=(?:2 ± #{NUMBER}|1)\z/ }, "no #{model} line in:\n#{result.out}")
    end
    assert(lines.any? { |l| l =~ /\A>times faster:\s+(#{NUMBER}|-) +(#{NUMBER}|-) +(#{NUMBER}|-) \( *(#{NUMBER}|-)\)  serial vs threads\z/o }, result.out)
    refute_match(/NaN|Infinity/, result.out)
    assert_match(/Digests agree/, result.out)
  end

  def test_a_zero_denominator_prints_a_dash_not_nan
    collect("-w", "tarai", "-m", "serial,threads", "--param", "x=8", "--param", "y=4", "--param", "z=0")
    lines = File.readlines(@out).map { |l| JSON.parse(l) }
    lines.each { |r| r["system"] = 0.0 if r["model"] == "threads" }
    File.write(@out, lines.map { |l| JSON.generate(l) }.join("\n") + "\n")
    result = ractorbench("report", @out, "--format", "bm")
    assert_equal 0, result.code, result.err
    assert_match(/^threads\s+#{NUMBER}   0\.000000 +#{NUMBER} /o, result.out)
    assert_match(/^>times faster:\s+#{NUMBER} +- +#{NUMBER} \( *#{NUMBER}\)  serial vs threads$/o, result.out)
    refute_match(/NaN/, result.out)
  end

  def test_without_serial_the_baseline_is_threads_and_unsupported_models_say_so
    collect("-w", "spawn", "-m", "serial,threads,ractors")
    result = ractorbench("report", @out, "--format", "bm")
    assert_match(/; baseline threads$/, result.out)
    assert_match(/^serial\s+not measured: spawn measures .* no serial variant$/, result.out)
    assert_match(/^>times faster:.*  threads vs ractors$/, result.out)
  end
end
