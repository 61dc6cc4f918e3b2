# frozen_string_literal: true

require "test_helper"

# A sweep sized so that every model can keep its workers busy: coarse items
# (about 20 ms each) are few, and the processes model must still give each
# of its workers some (it hands coarse items out one at a time).
class TrySweepSizingTest < Minitest::Test
  include CLIHelper
  include TempDir

  def sweep
    @log = File.join(@dir, "pids.log")
    @results = File.join(@dir, "coarse.jsonl")
    ractorbench("try", "test/fixtures/try/coarse.rb", "--workers", "1,2", "--reps", "2", "--items", "12",
      "--models", "processes", "-o", @results, chdir: ROOT, env: {"TRY_PID_LOG" => @log})
  end

  # The fixture logs "supervisor worker" for each item a forked worker ran.
  def test_processes_uses_both_workers_for_twelve_coarse_items
    result = sweep
    assert_equal 0, result.code, result.out + result.err
    assert_match(/\ASweep: serial, processes at W=1,2; 12 items a run \(6 per worker at W=2\)\n/, result.out)
    assert_match(/^  2 runs a point, 6 runs in all, each a fresh process: /, result.out)
    per_run = File.readlines(@log).map(&:split).group_by(&:first).transform_values { |lines| lines.map(&:last).tally.values.sort }
    two_workers = runs_in(@results).count { |r| r["model"] == "processes" && r["workers"] == 2 }
    assert_equal 2, two_workers
    spread = per_run.values.select { |counts| counts.size == 2 }
    assert_equal two_workers, spread.size, "every W=2 run used both workers: #{per_run.values.inspect}"
    spread.each { |counts| assert_operator counts.min, :>=, 4, "neither worker idle for long: #{counts.inspect}" }
    assert_equal [[12], [12]], per_run.values.select { |counts| counts.size == 1 }, "W=1: one worker ran all 12"
  end

  # try reports the spread from the per-worker job counts a run records.
  def test_try_shows_the_items_per_worker
    result = sweep
    assert_equal 0, result.code, result.out + result.err
    recorded = runs_in(@results).select { |r| r["model"] == "processes" && r["workers"] == 2 }.map { |r| r["worker_jobs"].sort }
    shown = result.out[/^Items per worker .*\n  processes: W=2 (\d+\+\d+)$/, 1]
    refute_nil shown, result.out
    # Coarse items go out one at a time: on a busy machine one worker may take 7 to the other's 5.
    assert_includes recorded, shown.split("+").map(&:to_i).sort, "the line shows a run's own counts"
    assert_operator shown.split("+").map(&:to_i).min, :>=, 4
    refute_match(/UNEVEN/, result.out)
  end
end
