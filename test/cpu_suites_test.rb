# frozen_string_literal: true

require "test_helper"
require "ractorbench/plan/scaling"
require_relative "../harness/workloads/tarai"

# The exploring-ractors and ractor-reconsidered suites at a tiny --scale:
# every run passes its check, and scaling shrinks the work, not the shape.
class CpuSuitesTest < Minitest::Test
  include CLIHelper

  Scaling = Ractorbench::Plan::Scaling
  Tarai = Ractorbench::Workloads::Tarai

  include TempDir

  def collect(suite, scale)
    out = File.join(@dir, "#{suite}.jsonl")
    result = ractorbench("run", "--suite", suite, "--scale", scale, "--reps", "1", "-o", out)
    assert_equal 0, result.code, result.err
    [result, runs_in(out)]
  end

  def test_exploring_ractors_runs_fib_and_tarai_with_and_without_yjit
    result, runs = collect("exploring-ractors", "0.001")
    assert_equal %w[ruby ruby+yjit], runs.map { |r| r["ruby"] }.uniq.sort
    assert_equal %w[ractors serial threads], runs.map { |r| r["model"] }.uniq.sort
    fib = runs.select { |r| r["workload"] == "fib" }
    assert_equal [{"n" => Scaling.fib_n(38, 0.001)}], fib.map { |r| r["params"] }.uniq
    assert_equal [[10, 1]], fib.map { |r| [r["workers"], r["messages"]] }.uniq, "fib keeps its 10 copies"
    tarai = runs.select { |r| r["workload"] == "tarai" }
    assert_equal [[4, 1]], tarai.map { |r| [r["workers"], r["messages"]] }.uniq
    runs.each { |r| assert_includes %w[ok unsupported], r["status"], "#{r["id"]}: #{r["reason"]}" }
    assert_operator runs.count { |r| r["status"] == "ok" }, :>=, 6
    assert_match(/Digests agree/, result.out)
  end

  def test_ractor_reconsidered_runs_every_experiment_of_the_talk
    result, runs = collect("ractor-reconsidered", "0.0001")
    assert_equal %w[alloc fan-in ring spawn tarai], runs.map { |r| r["workload"] }.uniq.sort
    runs.each { |r| assert_equal "ok", r["status"], "#{r["id"]}: #{r["reason"]}" }
    ring = runs.find { |r| r["workload"] == "ring" }
    assert_equal 100, ring["nodes"], "10,000 nodes by sqrt(0.0001)"
    assert_equal 10 * 100, ring["hops"], "1,000 laps by sqrt(0.0001), 100 hops each"
    assert_equal [%w[gc off], %w[gc on]], runs.select { |r| r["workload"] == "spawn" }.map { |r| r["params"].to_a.first }.uniq.sort
    assert_match(/Digests agree/, result.out)
  end

  def test_fib_scaling_keeps_cost_proportional
    assert_equal 38, Scaling.fib_n(38, 1.0)
    assert_equal 32, Scaling.fib_n(38, 0.05)
    ratio = Scaling.fib_calls(Scaling.fib_n(38, 0.05)).to_f / Scaling.fib_calls(38)
    assert_in_delta 0.05, ratio, 0.02
  end

  def test_tarai_call_counts_are_those_of_the_real_recursion
    calls = 0
    tarai = ->(x, y, z) { (calls += 1) && ((x <= y) ? y : tarai.call(tarai.call(x - 1, y, z), tarai.call(y - 1, z, x), tarai.call(z - 1, x, y))) }
    tarai.call(9, 4, 0)
    assert_equal calls, Tarai.calls(9, 4, 0)
    assert_equal [14, 7, 0], Tarai.scaled_args(14, 7, 0, 1.0)
    scaled = Tarai.scaled_args(14, 7, 0, 0.05)
    assert_in_delta 0.05, Tarai.calls(*scaled).to_f / Tarai.calls(14, 7, 0), 0.01
  end
end
