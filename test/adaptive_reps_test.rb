# frozen_string_literal: true

require "test_helper"
require "ractorbench/stats/median_interval"

# `run --reps auto[:SECONDS]`: at least the repetitions a 95% interval of a
# median needs, then more only of configurations whose interval is still
# wider than ±5%. Whether one settles depends on the machine, so what is
# asserted is that no run was ever added to a configuration already settled.
class AdaptiveRepsTest < Minitest::Test
  include CLIHelper
  include TempDir

  def test_more_runs_only_where_the_median_is_still_uncertain
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", "tarai", "-m", "serial,threads", "--workers", "2", "--messages", "2",
      "--param", "x=8", "--reps", "auto:4", "-o", out)
    assert_equal 0, result.code, result.err
    assert_equal "auto:4", results_lines(out).first["reps"]
    need = Ractorbench::Stats::MedianInterval.min_samples
    runs_in(out).group_by { |r| r["model"] }.each do |model, runs|
      reps = runs.map { |r| r["rep"] }.sort
      assert_equal (1..reps.size).to_a, reps, "#{model}: repetitions numbered without gaps"
      assert_operator reps.size, :>=, need, model
      runs.sort_by { |r| r["rep"] }.each_with_index do |run, i|
        next if i < need

        # What the decision saw: runs another program disturbed stay out
        # (all of them count when every run was disturbed).
        prior = runs.sort_by { |r| r["rep"] }.first(i)
        prior = prior.reject { |r| r["disturbed"] } unless prior.all? { |r| r["disturbed"] }
        before = prior.map { |r| r["messages_time"] }
        width = Ractorbench::Stats::MedianInterval.for(before).relative_half_width
        next if width.nil? # too few undisturbed runs for an interval: not settled

        assert_operator width, :>, 0.05, "#{model} rep #{run["rep"]} was added although #{i} runs were within ±5%"
      end
    end
  end

  def test_a_bad_budget_is_one_line
    %w[auto:abc auto:0 automatic auto:-5].each do |reps|
      assert_usage_error ractorbench("run", "--reps", reps, "-w", "noop"),
        /--reps auto:SECONDS needs a positive number of seconds, e\.g\. --reps auto:60, got "#{reps}"/
    end
  end
end
