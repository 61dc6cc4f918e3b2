# frozen_string_literal: true

require "test_helper"

# What the report says about runs whose numbers need a word: a worker left
# idle, work too short to show parallelism, and the split models next to the
# per-job ones. Real runs through the CLI; the wording is asserted, never a
# timing.
class RunExplanationsTest < Minitest::Test
  include CLIHelper
  include TempDir

  def run_and_report(*args)
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", *args, "-o", out)
    assert_equal 0, result.code, result.out + result.err
    report = ractorbench("report", out, "--format", "text", env: {"COLUMNS" => "100"})
    assert_equal 0, report.code, report.err
    [runs_in(out), report.out]
  end

  def test_a_run_that_left_a_worker_idle_is_flagged
    _, report = run_and_report("--load", fixture("lopsided_model.rb"), "-w", "tarai", "-m", "serial,lopsided,processes",
      "--workers", "2", "--messages", "2", "--param", "x=8", "--param", "y=4", "--reps", "1")
    assert_match(/WARNING: in 1 configuration a worker did no job while another did 2 or more \(tarai\/lopsided\/w2\/m2\/x=8,y=4\/ruby: 1 of 1 runs, jobs per worker \[4, 0\]\)/, report)
    assert_match(/\| lopsided +\|.*\|\s+\d\.\d\d× \? \|/, report, "the speedup cell is marked")
    refute_match(/\| processes +\|.*× \? \|/, report, "processes spreads four jobs over both workers")
  end

  def test_work_too_short_to_show_parallelism_gets_a_warning
    _, report = run_and_report("-w", "tarai", "-m", "serial,ractors", "--workers", "2", "--messages", "1",
      "--param", "x=8", "--param", "y=4", "--reps", "1")
    assert_match(/WARNING: the work of 1 configuration takes under 50 ms serially \(tarai\/w2\/m1\/x=8,y=4\/ruby: \d+ ms\): too short to show parallelism, starting threads, ractors or processes dominates; raise --messages or the workload's size/, report)
  end

  def test_work_long_enough_gets_no_such_warning
    # 4 copies of fib(28): a fifth of a second or more serially, slower still on a busy machine.
    _, report = run_and_report("-w", "fib", "-m", "serial,threads", "--workers", "2", "--messages", "2",
      "--param", "n=28", "--reps", "1")
    refute_match(/too short/, report)
  end

  def test_split_models_are_set_beside_the_per_job_ones_in_words
    runs, report = run_and_report("-w", "tarai", "-m", "serial,processes,processes-split,ractors,ractors-pipeless,ractors-split",
      "--workers", "2", "--messages", "2", "--param", "x=8", "--param", "y=4", "--reps", "1")
    assert_equal ["ok"], runs.map { |r| r["status"] }.uniq
    pattern = /^SPLIT CEILING vs PER-MESSAGE COST: tarai \(x=8,y=4\) W=2 M=2 ruby: %s \d\.\d\d× is the work's ceiling \(each worker given its whole share at once, its results back in one\); %s$/
    assert_match(format(pattern.source, "processes-split", "processes \\d\\.\\d\\d× \\((at the ceiling|per-job messages cost \\d+% of it)\\)").then { Regexp.new(_1) }, report)
    per_job = "ractors \\d\\.\\d\\d× \\([^)]*\\), ractors-pipeless \\d\\.\\d\\d× \\([^)]*\\)"
    assert_match(Regexp.new(format(pattern.source, "ractors-split", per_job)), report)
  end
end
