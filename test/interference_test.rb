# frozen_string_literal: true

require "test_helper"
require "etc"

# Each run records what the rest of the machine did while it ran (/proc/stat
# before and after, less the run's own process tree): next to CPU hogs the
# test starts (and stops), every run is marked disturbed and the report says
# so, and `try` gives no recommendation; --wait-quiet waits, bounded, and
# records that the machine stayed busy.
# Whether a run on this shared machine is undisturbed is not asserted: other
# programs may be running.
class InterferenceTest < Minitest::Test
  include CLIHelper
  include TempDir

  def with_hogs
    skip "no /proc/stat here: interference is not measured" unless File.exist?("/proc/stat")

    hogs = Array.new(Etc.nprocessors) { Process.spawn(RbConfig.ruby, "-e", "loop {}") }
    sleep 0.3 # let them reach full speed
    yield
  ensure
    Array(hogs).each do |pid|
      Process.kill(:KILL, pid)
      Process.wait(pid)
    end
  end

  def test_runs_next_to_cpu_hogs_are_marked_disturbed
    out = File.join(@dir, "r.jsonl")
    with_hogs do
      result = ractorbench("run", "-w", "tarai", "-m", "serial,threads", "--workers", "2", "--messages", "2",
        "--param", "x=10", "--reps", "2", "-o", out)
      assert_equal 0, result.code, result.err
      assert_match(/WARNING: 4 of 4 runs were disturbed: other programs.* kept more than 0\.25 of a core busy while they ran \(most: \d+\.\d\d cores during tarai\/.*\).*run again with --wait-quiet/, result.out)
    end
    runs = runs_in(out)
    runs.each do |run|
      assert run["disturbed"], "#{run["id"]}: others_cpu #{run["others_cpu"]} in #{run["whole_time"]} s"
      assert_operator run["others_cpu"] + run["steal"], :>=, 0.25 * run["whole_time"]
    end
    refute_match(/load average/, ractorbench("report", out).out, "the measured interference replaces the load-average guesses")
    JSON.parse(ractorbench("report", out, "--format", "json").out)["configurations"].each do |row|
      assert_equal row["samples"], row["disturbed_runs"], row["model"]
    end
  end

  def test_wait_quiet_is_bounded_and_says_when_the_machine_stayed_busy
    out = File.join(@dir, "r.jsonl")
    with_hogs do
      result = ractorbench("run", "--wait-quiet=1", "-w", "tarai", "-m", "serial", "--workers", "1", "--messages", "1",
        "--param", "x=8", "--reps", "1", "-o", out)
      assert_equal 0, result.code, result.err
      assert_match(/the machine stayed busy for 1s \(--wait-quiet\): running anyway/, result.err)
    end
    run = runs_in(out).first
    assert_equal false, run["quiet"]
    assert_operator run["waited_quiet"], :>=, 1.0
  end

  def test_try_under_cpu_hogs_says_inconclusive
    out = File.join(@dir, "try.jsonl")
    with_hogs do
      result = ractorbench("try", "examples/string_crunch.rb", "--workers", "1,2", "--reps", "1", "-m", "serial,threads",
        "--items", "200", "-o", out, chdir: ROOT)
      assert_equal 0, result.code, result.out + result.err
      assert_match(/^Recommendation: inconclusive: the machine was busy: \d+ of \d+ runs were disturbed .*run again with --wait-quiet$/, result.out)
      refute_match(/Recommendation: (use|stay serial)/, result.out)
    end
    # Waiting for a CPU the hogs held is not the work's own waiting: the
    # CPU-bound example still reads as CPU-bound (so fibers are not added).
    share = results_lines(out).first.dig("try", "preflight", "cpu_share")
    assert_operator share, :>=, 0.5
  end

  def test_a_bad_wait_is_one_line
    assert_usage_error ractorbench("run", "--wait-quiet=abc", "-w", "noop"), /--wait-quiet must be a positive number, got "abc"/
    assert_usage_error ractorbench("run", "--wait-quiet=-3", "-w", "noop"), /--wait-quiet must be a positive number, got "-3"/
    assert_usage_error ractorbench("try", "examples/string_crunch.rb", "--wait-quiet=soon", chdir: ROOT), /--wait-quiet must be a positive number, got "soon"/
  end
end
