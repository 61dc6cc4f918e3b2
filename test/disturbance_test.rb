# frozen_string_literal: true

require_relative "test_helper"
require_relative "synthetic_results"
require "etc"

# Each run records what the rest of the machine did while it ran (other
# processes' CPU, steal); a run next to a CPU hog is marked disturbed, its
# figures leave the verdicts, and `try` under it refuses to recommend.
class DisturbanceTest < Minitest::Test
  include CLIHelper
  include TempDir

  # One busy loop per core, in processes of their own, for the block's length.
  def with_cpu_hogs
    pids = Array.new(Etc.nprocessors) { Process.spawn(RbConfig.ruby, "-e", "loop {}") }
    sleep 0.3
    yield
  ensure
    pids&.each do |pid|
      Process.kill(:KILL, pid)
      Process.wait(pid)
    rescue Errno::ESRCH, Errno::ECHILD
      nil
    end
  end

  def test_a_run_next_to_a_cpu_hog_is_marked_disturbed
    skip "no /proc/stat here: interference is not measured" unless File.readable?("/proc/stat")
    out = File.join(@dir, "busy.jsonl")
    result = with_cpu_hogs do
      ractorbench("run", "-w", "fib", "--param", "n=24", "-m", "serial,threads", "--workers", "1", "--messages", "2",
        "--reps", "2", "-o", out)
    end
    assert_equal 0, result.code, result.err
    runs = runs_in(out)
    assert_equal 4, runs.size
    runs.each do |r|
      assert_equal true, r["disturbed"], "#{r["id"]}: others used #{r["others_cpu"]} s in #{r["whole_time"]} s"
      assert_operator r["others_cpu"], :>, 0.25 * r["whole_time"]
    end
    report = ractorbench("report", out)
    assert_match(/4 of 4 runs were disturbed by other programs/, report.out)
    assert_match(/INCONCLUSIVE: the machine was busy/, report.out)
    refute_match(/load average/, report.out, "the load-average warnings give way to per-run measurements")
  end

  def test_try_under_a_cpu_hog_is_inconclusive
    skip "no /proc/stat here: interference is not measured" unless File.readable?("/proc/stat")
    result = with_cpu_hogs do
      ractorbench("try", File.join(ROOT, "examples", "string_crunch.rb"), "--items", "4", "--workers", "1,2",
        "--reps", "2", "-m", "threads", "-o", File.join(@dir, "try.jsonl"))
    end
    assert_equal 0, result.code, result.err
    assert_match(/Recommendation: inconclusive: the machine was busy: \d+ of \d+ runs were disturbed/, result.out)
    refute_match(/Recommendation: (use|stay)/, result.out)
  end

  def test_wait_quiet_takes_an_optional_bound
    assert_usage_error ractorbench("run", "--wait-quiet=abc", "-o", File.join(@dir, "x.jsonl")),
      /--wait-quiet must be a positive number, got "abc"/
    assert_usage_error ractorbench("run", "--wait-quiet=0", "-o", File.join(@dir, "x.jsonl")), /--wait-quiet must be a positive/
    out = File.join(@dir, "q.jsonl")
    result = ractorbench("run", "-w", "fib", "--param", "n=10", "-m", "serial", "--workers", "1", "--messages", "1",
      "--reps", "1", "--wait-quiet=1", "-o", out)
    assert_equal 0, result.code, result.err
    waited = runs_in(out).first.fetch("waited_for_quiet")
    assert_operator waited, :<=, 1.5, "the wait is bounded"
  end

  # Steal is not other programs: a run the hypervisor took CPU from is
  # counted as such, with what to do about it (closing programs will not help).
  def test_runs_disturbed_by_steal_are_told_apart_from_other_programs
    path = results_disturbed(1 => :steal, 2 => :steal, 3 => :others)
    report = ractorbench("report", path, env: {"COLUMNS" => "400"})
    assert_equal 0, report.code, report.err
    assert_match(/6 of 12 runs were disturbed: 2 by other programs \(up to 0\.7 cores busy besides ours\), 4 by the hypervisor \(steal: it took up to 40% of a run's time from this VM\)/, report.out)
    assert_match(/close other programs, or use --wait-quiet; steal comes from other virtual machines on the same host/, report.out)

    report = ractorbench("report", results_disturbed(1 => :steal, 2 => :steal, 3 => :steal, 4 => :others), env: {"COLUMNS" => "400"})
    assert_match(/INCONCLUSIVE: the machine was busy: 8 of 12 runs were disturbed by the hypervisor taking CPU from this VM \(steal\), so no verdict is given; run again when the host is quieter/, report.out)
    report = ractorbench("report", results_disturbed(1 => :steal, 2 => :others, 3 => :others, 4 => :others), env: {"COLUMNS" => "400"})
    assert_match(/INCONCLUSIVE: the machine was busy: 8 of 12 runs were disturbed by other programs, so no verdict is given; close them/, report.out)
  end

  # Two models, 6 repetitions of 0.15 s each; busy: {rep => :steal or :others}.
  def results_disturbed(busy)
    samples = %w[serial threads].to_h { |model| [["fib", model, 2, 4, "ruby"], [0.1] * 6] }
    path = SyntheticResults.write(File.join(@dir, "r#{busy.hash.abs}.jsonl"), samples)
    figures = {steal: {"steal" => 0.06, "others_cpu" => 0.0, "disturbed" => true},
               others: {"steal" => 0.0, "others_cpu" => 0.1, "disturbed" => true}}
    quiet = {"steal" => 0.0, "others_cpu" => 0.0, "disturbed" => false}
    lines = File.readlines(path).map do |line|
      r = JSON.parse(line)
      (r["type"] == "run") ? JSON.generate(r.merge(figures.fetch(busy[r["rep"]], quiet))) + "\n" : line
    end
    File.write(path, lines.join)
    path
  end
end
