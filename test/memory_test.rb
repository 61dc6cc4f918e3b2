# frozen_string_literal: true

require "test_helper"
require File.join(ROOT, "harness", "workloads", "memory")

# ruby-bench's three Ractor memory scenarios as ractorbench's memory
# workload: real ractors and threads build, drop and pass real strings; each
# run records the memory kept after a full GC and the peak beside its time,
# and the models where the scenario means nothing say why. Run on 3.1 and on
# 4.0.
class MemoryTest < Minitest::Test
  include CLIHelper
  include TempDir

  Memory = Ractorbench::Workloads::Memory

  def collect(scenario)
    out = File.join(@dir, "#{scenario}.jsonl")
    result = ractorbench("run", "-w", "memory", "-m", "ractors,threads,processes,fibers", "--workers", "2", "--messages", "10",
      "--param", "scenario=#{scenario}", "--param", "gate=0.1", "--reps", "1", "-o", out)
    assert_includes [0, 1], result.code, result.err
    [out, runs_in(out).to_h { |r| [r["model"], r] }]
  end

  def test_every_scenario_runs_to_a_recorded_figure_under_ractors_and_threads
    Memory::SCENARIOS.each do |scenario|
      out, runs = collect(scenario)
      %w[ractors threads].each do |model|
        run = runs.fetch(model)
        assert_equal "ok", run["status"], "#{scenario} #{model}: #{run["reason"]}"
        assert_equal 20, run["results"], "#{scenario} #{model}: 2 units x 10 chunks of 1,000"
        # 20,000 strings of 130 bytes or more were alive at once.
        assert_operator run["scenario_peak_kb"], :>, 2_000, "#{scenario} #{model}: the peak saw the strings"
        assert_kind_of Integer, run["kept_kb"]
        assert_match(/\AGC\.start(\(global: true\))?\z/, run["memory_settle"])
        assert_match(/\A#{scenario}: /, run["variant"])
      end
      assert_match(/one shared heap: a process's memory goes back to the OS/, runs.fetch("processes")["reason"])
      assert_match(/fibers share one thread's heap/, runs.fetch("fibers")["reason"])
      assert_equal 1, runs.values.filter_map { |r| r["digest"] }.uniq.size, scenario

      report = ractorbench("report", out, "--format", "text")
      assert_equal 0, report.code, report.err
      assert_includes report.out, "Memory scenarios (ruby-bench's): kept:"
      assert_match(/^#{scenario} 2×10 +ruby /, report.out)
      %w[ractors threads].each { |model| assert_match(/^ +ruby +#{model} +1 +\S+ +\d+\.\d +\d+\.\d$/, report.out, "#{model}: time, kept, peak") }
    end
  end

  def test_the_check_counts_every_item
    whole = [[0, 0, 1000], [0, 1, 1000], [1, 0, 1000], [1, 1, 1000]]
    assert_nil Memory.check(whole, 4, {})
    assert_match(/1 chunks held fewer than 1000 items/, Memory.check([[0, 0, 1000], [0, 1, 999], [1, 0, 1000], [1, 1, 1000]], 4, {}))
    assert_match(/expected 4 chunks of 1000, got 3/, Memory.check(whole.first(3), 4, {}))
  end

  def test_a_bad_scenario_or_gate_is_one_line
    assert_usage_error(ractorbench("run", "-w", "memory", "--param", "scenario=leak", "-o", File.join(@dir, "x.jsonl")),
      /scenario must be one of dead-set, idle-garbage, msg-backlog/)
    assert_usage_error(ractorbench("run", "-w", "memory", "--param", "gate=-1", "-o", File.join(@dir, "y.jsonl")),
      /gate must be a number of seconds, 0 or more/)
  end
end
