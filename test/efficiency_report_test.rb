# frozen_string_literal: true

require "test_helper"
require "csv"

# Parallel efficiency (speedup / min(W, usable cores)) and CPU cost against
# serial, with contention called out; shown in every format.
class EfficiencyReportTest < Minitest::Test
  include CLIHelper

  def setup
    @dir = Dir.mktmpdir
    @out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", "tarai", "-m", "serial,threads", "--param", "x=9", "--param", "y=4", "--param", "z=0",
      "--workers", "2", "--messages", "1", "--reps", "2", "-o", @out)
    assert_equal 0, result.code, result.err
  end

  def teardown
    FileUtils.rm_rf(@dir)
  end

  def configurations
    JSON.parse(ractorbench("report", @out, "--format", "json").out)["configurations"].to_h { |c| [c["model"], c] }
  end

  def test_efficiency_and_cpu_cost_follow_from_the_recorded_figures
    usable = results_lines(@out).first.dig("machine", "usable_cores")
    rows = configurations
    threads = rows.fetch("threads")
    assert_equal [2, usable].min, threads["cores_used"]
    assert_in_delta threads["speedup"] / threads["cores_used"], threads["parallel_efficiency"], 1e-9
    assert_in_delta threads["cpu_seconds"] / rows.fetch("serial")["cpu_seconds"], threads["cpu_cost"], 1e-9
    assert_nil rows.fetch("serial")["parallel_efficiency"], "the baseline is not rated against itself"
  end

  # The same runs, as if threads had burned three times serial's CPU on a
  # machine with one usable core (the seed's container).
  def test_contention_and_oversubscription_are_said_in_words
    lines = results_lines(@out)
    lines.first["machine"]["usable_cores"] = 1
    cpu = {"serial" => [0.1, 0.02], "threads" => [0.3, 0.06]}
    lines.each { |r| r["user"], r["system"] = cpu[r["model"]] if cpu.key?(r["model"]) }
    File.write(@out, lines.map { |l| JSON.generate(l) }.join("\n") + "\n")

    text = ractorbench("report", @out, "--format", "text").out
    assert_match(/CONTENTION: tarai \(x=9,y=4,z=0\) W=2 M=1 ruby: threads burned 3\.00× serial's CPU for the same work .*medians of [12] and [12] runs\): the time went into contention inside the Ruby VM or the OS, not into the work/, text)
    assert_match(/\| +\d+% of 1 \| +3\.00× ! \|/, text)
    assert_match(/this machine has 1 usable core .*W=2 exceeds them, so those rows are rated against 1 core\./, text)
    assert_match(/CONTENTION: tarai/, ractorbench("report", @out, "--format", "markdown").out)
    csv = CSV.parse(ractorbench("report", @out, "--format", "csv").out, headers: true).find { |r| r["model"] == "threads" }
    assert_equal "true", csv["contention"]
    assert_in_delta 3.0, csv["cpu_cost"].to_f, 1e-6
    assert_equal "1", csv["cores_used"]
  end
end
