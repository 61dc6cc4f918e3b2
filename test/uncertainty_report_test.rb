# frozen_string_literal: true

require "test_helper"
require "synthetic_results"

# What `report` says about how far to trust its numbers: intervals, the
# headline bars, the first run kept apart for a JIT, and warnings that say
# what to do. Synthesized results files make the conditions exact (a loaded
# machine, a cgroup quota, a powersave governor) whatever machine runs this.
class UncertaintyReportTest < Minitest::Test
  include CLIHelper
  S = SyntheticResults

  include TempDir

  def path(name) = File.join(@dir, name)

  # n values spread evenly around median: a spread, and never an outlier.
  def even(n, median, spread) = Array.new(n) { |i| median * (1 + spread * (i.fdiv(n - 1) - 0.5)) }.shuffle(random: Random.new(n))

  def quiet_file
    S.write(path("quiet.jsonl"), {
      # A tenth of a second of serial work: long enough to show parallelism.
      ["prime", "serial", 2, 50, "ruby"] => even(10, 0.100, 0.02),
      ["prime", "threads", 2, 50, "ruby"] => even(10, 0.110, 0.02),
      ["prime", "ractors", 2, 50, "ruby"] => even(10, 0.060, 0.02)
    }, machine: {"scaling_governors" => {"performance" => 4}})
  end

  def test_a_quiet_collection_shows_intervals_bars_and_no_warnings
    file = quiet_file
    text = ractorbench("report", file, "--format", "text")
    assert_equal 0, text.code, text.err
    refute_match(/WARNING/, text.out)
    assert_match(/median 95% CI/, text.out)
    assert_match(/Speedup over serial of the messages-only time/, text.out)
    ractors = text.out.lines.find { |l| l.start_with?("  ractors ") }
    assert_match(/█+.* 1\.\d\d×  \[1\.\d\d, 1\.\d\d\]\s+n=10/, ractors)

    data = JSON.parse(ractorbench("report", file, "--format", "json").out)
    assert_empty data["warnings"]
    ractors = data["configurations"].find { |c| c["model"] == "ractors" }
    ci = ractors["messages_time_ci"]
    assert_operator ci["low"], :<=, ractors["messages_time"]["median"]
    assert_operator ci["high"], :>=, ractors["messages_time"]["median"]
    assert_in_delta 0.978515625, ci["confidence"] # 10 runs: order statistics 2 and 9
    assert_operator ractors["speedup_ci"]["low"], :<, ractors["speedup"]
    assert_operator ractors["speedup_ci"]["high"], :>, ractors["speedup"]
    assert ractors["speedup_ci"]["paired"]

    md = ractorbench("report", file, "--format", "markdown").out
    assert_match(/^\*\*Fastest model\*\*/, md)
    assert_match(/^- prime W=2 M=50 on ruby: \*\*ractors\*\* 1\.\d\d× over serial \[1\.\d\d, 1\.\d\d\] \(n=10\), ahead of serial by \d+% \(Holm p <0\.001\)/, md)
    assert_match(/\| 95% CI \|.*\| 95% CI \|/, md)
  end

  def test_warnings_say_what_to_do
    slow_first = [0.030] + S.draws(3, median: 0.010, spread: 0.01, seed: 4) # rep 1 ran cold
    outlier = S.draws(3, median: 0.010, spread: 0.005, seed: 5).insert(2, 0.05)
    file = S.write(path("noisy.jsonl"), {
      ["prime", "serial", 2, 50, "ruby"] => [0.012, 0.006, 0.014, 0.008], # sd / mean 37%, no outlier
      ["prime", "threads", 2, 50, "ruby"] => slow_first,
      ["prime", "ractors", 2, 50, "ruby"] => outlier
    }, run_load: 6.0, machine: {"load_average" => [3.2, 1.0, 0.5], "cores" => 4, "usable_cores" => 1,
                                "affinity_cores" => 1, "cgroup_cpu_limit" => 0.5, "scaling_governors" => {"powersave" => 4}})
    out = ractorbench("report", file).out
    [
      %r{WARNING: the work of 1 configuration takes under 50 ms serially \(prime/w2/m50/ruby: 10 ms\): too short to show parallelism},
      /WARNING: 3 of 3 configurations have fewer than 6 successful runs \(fewest: 4\).*run again with --reps 6 or more/,
      %r{WARNING: runs vary by more than 10% .* prime/serial/w2/m50/ruby \(\d+%\).*make each run longer \(more --messages\)},
      %r{WARNING: the first run of 1 configuration was much slower than the rest \(prime/threads/w2/m50/ruby\).*use --first-run exclude},
      %r{WARNING: 1 run stands far from the rest .*prime/ractors/w2/m50/ruby/rep3.*run again on a quiet machine},
      /WARNING: the 1-minute load average was 3.20 when the collection began: .*close them \(or wait\) and run again/,
      /WARNING: the 1-minute load average reached 6.00 during the collection, more than the 3 busy processes ractorbench.s own runs account for/,
      /WARNING: only 1 of the 4 cores was usable \(an affinity mask of 1 CPU and a cgroup CPU quota of 0.50 CPUs\).*docker --cpus/,
      /WARNING: W=2 exceeds the 1 usable core .*use --workers up to 1 to measure scaling/,
      /WARNING: the CPU frequency scaling governor is 'powersave' on 4 CPUs.*cpupower frequency-set -g performance/
    ].each { |pattern| assert_match(pattern, out) }

    codes = JSON.parse(ractorbench("report", file, "--format", "json").out)["warnings"].map { |w| w["code"] }
    assert_equal %w[too_short few_samples spread slow_first_run outliers load_before load_during limited_cores oversubscribed governor], codes
    md = ractorbench("report", file, "--format", "markdown").out
    assert_equal 10, md.lines.grep(/^> \*\*Warning:\*\* /).size
  end

  def test_the_first_run_is_kept_apart_for_a_jit_ruby_or_on_request
    file = S.write(path("jit.jsonl"), {
      ["prime", "serial", 2, 50, "base"] => [0.020, 0.010, 0.011, 0.010],
      ["prime", "serial", 2, 50, "yjit"] => [0.030, 0.008, 0.009, 0.008]
    }, jit: ["yjit"])
    samples = lambda do |*args|
      JSON.parse(ractorbench("report", file, "--format", "json", *args).out)["configurations"].to_h { |c| [c["ruby"], c] }
    end

    auto = samples.call
    assert_equal 4, auto["base"]["samples"]
    assert_equal 3, auto["yjit"]["samples"], "auto: a JIT Ruby's first run leaves the statistics"
    assert_in_delta 0.008, auto["yjit"]["messages_time"]["median"]
    assert_equal({"id" => "prime/serial/w2/m50/yjit/rep1", "messages_time" => 0.030, "whole_time" => 0.08, "excluded" => true},
      auto["yjit"]["first_run"].tap { |f| f["whole_time"] = f["whole_time"].round(6) })
    assert_equal false, auto["base"]["first_run"]["excluded"]

    assert_equal [3, 3], samples.call("--first-run", "exclude").values_at("base", "yjit").map { |c| c["samples"] }
    assert_equal [4, 4], samples.call("--first-run", "include").values_at("base", "yjit").map { |c| c["samples"] }

    text = ractorbench("report", file, "--format", "text").out
    assert_match(/Note: the first run of each configuration on yjit \(JIT enabled\) is left out/, text)
    assert_match(/\| 0\.0300 \(apart\) \|/, text)
    assert_usage_error(ractorbench("report", file, "--first-run", "sometimes"), /--first-run must be one of auto, include, exclude/)
  end
end
