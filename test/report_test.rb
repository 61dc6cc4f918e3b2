# frozen_string_literal: true

require "test_helper"
require "csv"

class ReportTest < Minitest::Test
  include CLIHelper

  def setup
    @dir = Dir.mktmpdir
    @out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", "prime", "-m", "serial,threads,ractors", "--workers", "2", "--messages", "10",
      "--reps", "3", "-o", @out)
    assert_equal 0, result.code, result.err
  end

  def teardown
    FileUtils.rm_rf(@dir)
  end

  def test_text_report_shows_every_statistic
    result = ractorbench("report", @out, "--format", "text")
    assert_equal 0, result.code
    %w[mean median variance min max].each { |word| assert_match(/#{word}/, result.out) }
    assert_match(/std dev/, result.out)
    assert_match(/prime\s*\|\s*ractors\s*\|\s*2\s*\|\s*10/, result.out)
    assert_match(%r{9/9 runs succeeded, 0 failed}, result.out)
  end

  def test_json_report_has_statistics_and_speedup
    data = JSON.parse(ractorbench("report", @out, "--format", "json").out)
    serial = data["configurations"].find { |c| c["model"] == "serial" }
    threads = data["configurations"].find { |c| c["model"] == "threads" }
    assert_equal counted_runs(@out, model: "serial"), serial["messages_time"]["samples"]
    assert_in_delta 1.0, serial["speedup"], 1e-9
    expected = serial["messages_time"]["median"] / threads["messages_time"]["median"]
    assert_in_delta expected, threads["speedup"], 1e-9
    assert data["machine"]["cores"].positive?
  end

  def test_csv_and_markdown
    csv = CSV.parse(ractorbench("report", @out, "--format", "csv").out, headers: true)
    assert_equal 3, csv.size
    assert_equal %w[ractors serial threads], csv.map { |r| r["model"] }.sort
    csv.each { |r| assert_equal counted_runs(@out, model: r["model"]).to_s, r["messages_time_samples"] }
    # Three runs are too few for a 95% interval of a median: the columns are there, empty.
    assert_includes csv.headers, "speedup_ci_low"
    assert_equal [nil], csv.map { |r| r["messages_time_ci_low"] }.uniq

    md = ractorbench("report", @out, "--format", "markdown").out
    assert_match(/^\| workload \| model \|/, md)
    assert_match(/^\| prime \| serial \| 2 \| 10 \|/, md)
  end

  def test_report_to_a_file
    target = File.join(@dir, "report.md")
    result = ractorbench("report", @out, "--format", "markdown", "-o", target)
    assert_equal 0, result.code
    assert_equal "", result.out
    assert_match(/\| prime \|/, File.read(target))
  end

  def test_truncated_last_line_warns_once_and_uses_complete_lines
    lines = File.readlines(@out)
    File.write(@out, lines[0...-1].join + lines[-1][0, 30])
    result = ractorbench("report", @out, "--format", "json")
    assert_equal 0, result.code
    assert_equal 1, result.err.lines.size
    assert_match(/last line .* was cut off/, result.err)
    counts = JSON.parse(result.out)["configurations"].to_h { |c| [c["model"], c["samples"]] }
    kept = File.join(@dir, "kept.jsonl")
    File.write(kept, File.readlines(@out)[0...-1].join)
    assert_equal %w[ractors serial threads].to_h { |m| [m, counted_runs(kept, model: m)] }, counts
    assert_equal 8, runs_in(kept).size
  end

  def test_bad_report_inputs
    assert_usage_error ractorbench("report", File.join(@dir, "missing.jsonl")), /cannot read .*missing.jsonl: no such file/
    assert_usage_error ractorbench("report", @dir), /cannot read .*: Is a directory/
    foreign = File.join(@dir, "foreign.jsonl")
    File.write(foreign, %({"hello": "world"}\n))
    assert_usage_error ractorbench("report", foreign), /not a ractorbench results file/
    File.write(foreign, "")
    assert_usage_error ractorbench("report", foreign), /not a ractorbench results file/
    assert_usage_error ractorbench("report", @out, "--format", "pdf"), /unknown format "pdf"/
    assert_usage_error ractorbench("report"), /report needs one results file/
  end

  # One damaged line costs one run, never the report: each is skipped with
  # its line number, whatever is wrong with it.
  def test_damaged_lines_are_skipped_with_their_line_numbers
    lines = File.readlines(@out)
    run = JSON.parse(lines[1])
    bad = ["garbage", "\xFF\xFE not utf-8".b, JSON.generate(run.merge("params" => "n=3")),
      JSON.generate(run.merge("id" => [1, 2])), JSON.generate(run.merge("system" => [])),
      JSON.generate(run.merge("messages_time" => 1e308)), JSON.generate({"type" => "run"})]
    damaged = File.join(@dir, "damaged.jsonl")
    File.binwrite(damaged, lines[0] + bad.map { |l| l + "\n" }.join + lines[1..].join)
    %w[text markdown csv json].each do |format|
      result = ractorbench("report", damaged, "--format", format)
      assert_equal 0, result.code, result.err
      (2..6).each { |n| assert_match(/skipped line #{n} of .*damaged.jsonl: /, result.err) }
      assert_match(/skipped 2 more damaged lines/, result.err)
      refute_match(/\.rb:\d+:in /, result.err)
    end
    assert_match(/params is not an object of plain values/, ractorbench("report", damaged).err)
    header = JSON.parse(lines[0]).merge("rubies" => "ruby")
    File.write(damaged, JSON.generate(header) + "\n" + lines[1..].join)
    assert_usage_error ractorbench("report", damaged), /damaged header \(its rubies is a string\)/
  end
end
