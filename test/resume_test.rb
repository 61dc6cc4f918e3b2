# frozen_string_literal: true

require "test_helper"

# A collector killed with SIGKILL mid-collection loses at most the run in
# flight; --resume finishes the plan with no run duplicated or lost.
class ResumeTest < Minitest::Test
  include CLIHelper

  def test_resume_after_sigkill_completes_the_plan_exactly_once
    Dir.mktmpdir do |dir|
      out = File.join(dir, "r.jsonl")
      args = [RbConfig.ruby, EXE, "run", "--load", fixture("failing_workloads.rb"), "-w", "sleeper",
        "-m", "serial,threads", "--workers", "1", "--messages", "1", "--param", "seconds=0.15", "--reps", "4",
        "--seed", "7", "-o", out]
      pid = Process.spawn(*args, out: File::NULL, err: File::NULL, pgroup: true)
      wait_for_runs(out, 3)
      Process.kill(:KILL, -pid)
      Process.wait(pid)

      before = runs_in(out).map { |r| r["id"] }
      assert_operator before.size, :<, 8, "the collector finished before it could be killed"

      result = ractorbench("run", "--resume", out)
      assert_equal 0, result.code, result.err
      assert_match(/resuming .*#{before.size} runs done, #{8 - before.size} to go/, result.err)

      header = results_lines(out).first
      lines = runs_in(out)
      planned = Ractorbench::Plan::Matrix.from_h(header["plan"]).runs.map { |r| "sleeper/#{r.model}/w1/m1/seconds=0.15/ruby/rep#{r.rep}" }
      ids = lines.map { |r| r["id"] }
      assert_equal ids.uniq, ids, "a run was duplicated"
      assert_equal planned.sort, ids.sort, "a run was lost"
      assert_equal before, ids.first(before.size), "runs recorded before the kill were kept as they were"
      assert_equal (1..8).to_a, lines.map { |r| r["seq"] }
    end
  end

  def test_resume_drops_a_half_written_last_line
    Dir.mktmpdir do |dir|
      out = File.join(dir, "r.jsonl")
      ractorbench("run", "-w", "prime", "-m", "serial,threads", "--workers", "1", "--messages", "2", "--reps", "2", "-o", out)
      lines = File.readlines(out)
      File.write(out, lines[0..2].join + lines[3][0, 40]) # the last run cut mid-write
      result = ractorbench("run", "--resume", out)
      assert_equal 0, result.code, result.err
      assert_match(/half-written/, result.err)
      ids = runs_in(out).map { |r| r["id"] }
      assert_equal 4, ids.uniq.size
      assert_equal 4, ids.size
    end
  end

  private

  def wait_for_runs(path, count)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 30
    until File.exist?(path) && File.readlines(path).count { |l| l.start_with?('{"type":"run"') } >= count
      flunk "the collector wrote nothing in 30 s" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      sleep 0.02
    end
  end
end
