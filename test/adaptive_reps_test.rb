# frozen_string_literal: true

require "test_helper"
require "ractorbench/collection"
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

# On a terminal the rounds' status line is redrawn in place, without a
# newline: a failure said during a round must start a line of its own.
class AdaptiveRoundsTerminalTest < Minitest::Test
  def test_a_failure_said_during_a_round_never_shares_the_status_line
    status = "ractorbench: --reps auto: round 1, 3 configurations not yet within ±5%: one more run each"
    shown = on_a_terminal do |io|
      rounds = Ractorbench::Collection::AdaptiveRounds.new(nil, deadline: 0, io: io)
      rounds.send(:redraw, status)
      progress = Ractorbench::Collection::AdaptiveRounds::UnderStatus.new(io, rounds.method(:redraw), status)
      progress.say("FAILED fan-in/ractors/w64/m11: wrong result")
      rounds.send(:redraw, nil)
    end
    assert_equal ["FAILED fan-in/ractors/w64/m11: wrong result"], shown
  end

  private

  # What stays on the screen of a real terminal (a pseudo-terminal), line by
  # line: what a line ends with after its last carriage return, colours
  # left out, empty lines dropped.
  def on_a_terminal
    require "pty"
    PTY.open do |master, terminal|
      yield terminal
      terminal.close
      text = +""
      begin
        text << master.readpartial(4096) while true # rubocop:disable Style/InfiniteLoop -- until EIO
      rescue EOFError, Errno::EIO
        nil
      end
      text.split("\n").filter_map { |line| line.split("\r").last&.gsub(/\e\[[\d;]*[mK]/, "") }.reject(&:empty?)
    end
  end
end
