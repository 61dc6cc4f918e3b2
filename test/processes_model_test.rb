# frozen_string_literal: true

require "test_helper"

# The processes model sends small jobs in batches; large ones must still flow
# one at a time, and nothing may fill both pipes while each side waits.
class ProcessesModelTest < Minitest::Test
  include CLIHelper

  def test_jobs_and_results_larger_than_a_pipe_buffer_do_not_deadlock
    Dir.mktmpdir do |dir|
      out = File.join(dir, "r.jsonl")
      result = ractorbench("run", "--load", fixture("bulky_workload.rb"), "-w", "bulky", "-m", "serial,processes",
        "--workers", "3", "--messages", "4", "--reps", "1", "--timeout", "60", "-o", out)
      assert_equal 0, result.code, result.out + result.err
      runs = runs_in(out)
      assert_equal ["ok"], runs.map { |r| r["status"] }.uniq
      assert_equal 1, runs.map { |r| r["digest"] }.uniq.size
    end
  end

  # Many jobs of 12 KB each, results as big: too big to batch (a job over
  # 4 KiB goes alone), many enough that small ones would be batched; the
  # supervisor writes without blocking while both pipes carry them.
  def test_many_middle_sized_jobs_flow_without_deadlock
    Dir.mktmpdir do |dir|
      out = File.join(dir, "r.jsonl")
      result = ractorbench("run", "--load", fixture("bulky_workload.rb"), "-w", "bulky", "-m", "serial,processes",
        "--workers", "2", "--messages", "200", "--param", "bytes=12000", "--reps", "1", "--timeout", "60", "-o", out)
      assert_equal 0, result.code, result.out + result.err
      runs = runs_in(out)
      assert_equal ["ok"], runs.map { |r| r["status"] }.uniq
      assert_equal 1, runs.map { |r| r["digest"] }.uniq.size
      assert_equal [400], runs.map { |r| r["results"] }.uniq
    end
  end

  def test_many_short_jobs_all_come_back_once
    Dir.mktmpdir do |dir|
      out = File.join(dir, "r.jsonl")
      result = ractorbench("run", "-w", "prime", "-m", "processes", "--workers", "3", "--messages", "701", "--reps", "1", "-o", out)
      assert_equal 0, result.code, result.err
      run = runs_in(out).first
      assert_equal 2103, run["results"]
      assert_equal 3, run["workers"]
    end
  end
end
