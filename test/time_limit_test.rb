# frozen_string_literal: true

require "test_helper"

# --timeout limits a run's measured part; what the child does after it
# (checking and digesting its results) gets the same time again, so a big
# result set cannot turn a run that finished in time into a failure.
class TimeLimitTest < Minitest::Test
  include TempDir
  include CLIHelper

  def run_slow_digest(work:, digest:)
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "--load", fixture("slow_digest.rb"), "-w", "slow-digest", "-m", "serial",
      "--workers", "1", "--messages", "1", "--reps", "1", "--param", "work=#{work}", "--param", "digest=#{digest}",
      "--timeout", "2", "-o", out)
    [result, runs_in(out).first]
  end

  def test_checking_results_after_the_measured_part_is_not_held_to_the_limit
    result, run = run_slow_digest(work: 0, digest: 3)
    assert_equal 0, result.code, result.out + result.err
    assert_equal "ok", run["status"]
    assert_operator run["whole_time"], :>, 2, "the run outlived --timeout, after its measured part"
    assert_operator run["messages_time"], :<, 2
  end

  def test_a_measured_part_past_the_limit_is_killed
    _, run = run_slow_digest(work: 4, digest: 0)
    assert_equal "timeout", run["failure"]
    assert_match(/\Atimed out after 2.0s/, run["reason"])
  end

  def test_checking_past_a_second_limit_is_killed_and_says_where_it_was
    _, run = run_slow_digest(work: 0, digest: 8)
    assert_equal "timeout", run["failure"]
    assert_match(/its measured part ended after 0\.\ds, then checking its results passed another 2.0s/, run["reason"])
    assert_operator run["whole_time"], :<, 7
  end
end
