# frozen_string_literal: true

require "test_helper"
require "ractorbench/plan/catalog"
%w[fib tarai alloc].each { |w| require File.join(ROOT, "harness", "workloads", w) }

# fib, tarai and alloc (seeds 002/003): each result check passes under every
# model of the catalog, in real child processes, and catches a wrong answer.
class CpuWorkloadsTest < Minitest::Test
  include CLIHelper

  Fib = Ractorbench::Workloads::Fib
  Tarai = Ractorbench::Workloads::Tarai
  Alloc = Ractorbench::Workloads::Alloc

  include TempDir

  def every_model
    Ractorbench::Plan::Catalog.default.models.map(&:name).sort
  end

  def run_everywhere(workload, *params)
    out = File.join(@dir, "#{workload}.jsonl")
    result = ractorbench("run", "-w", workload, "--workers", "2", "--messages", "2", "--reps", "1",
      *params.flat_map { |p| ["--param", p] }, "-o", out)
    [result, runs_in(out)]
  end

  def assert_checked_everywhere(workload, *params)
    result, runs = run_everywhere(workload, *params)
    assert_equal 0, result.code, result.err
    assert_equal every_model, runs.map { |r| r["model"] }.sort
    runs.each do |run|
      assert_equal "ok", run["status"], "#{run["id"]}: #{run["reason"]}"
      assert_equal 4, run["results"], run["id"]
    end
    assert_equal 1, runs.map { |r| r["digest"] }.uniq.size, "models disagree"
    runs
  end

  def test_fib_is_checked_under_every_model
    assert_checked_everywhere("fib", "n=20")
  end

  def test_tarai_is_checked_under_every_model
    assert_checked_everywhere("tarai", "x=8", "y=4", "z=0")
  end

  def test_alloc_is_checked_under_every_model
    assert_checked_everywhere("alloc", "iterations=1000")
  end

  def test_fib_matches_the_iterative_reference
    assert_equal 6765, Fib.iterative(20)
    assert_equal 6765, Fib.fibonacci(20)
    assert_nil Fib.check([6765, 6765], 2, n: 20)
    assert_match(/should be 6765; 1 copies gave 6764/, Fib.check([6765, 6764], 2, n: 20))
  end

  def test_tarai_matches_its_closed_form
    (0..7).to_a.repeated_permutation(3).each do |x, y, z|
      assert_equal Tarai.closed_form(x, y, z), Tarai.tarai(x, y, z), "tarai(#{x}, #{y}, #{z})"
    end
    assert_equal 14, Tarai.closed_form(14, 7, 0)
    assert_match(/should be 8/, Tarai.check([8, 7], 2, x: 8, y: 4, z: 0))
  end

  def test_alloc_counts_four_objects_an_iteration
    assert_equal 40, Alloc.work(10)
    assert_match(/should allocate 40 objects/, Alloc.check([40, 39], 2, iterations: 10))
  end

  def test_bad_sizes_are_usage_errors
    {
      %w[fib n=0] => /workload fib: n must be at least 1, got 0/,
      %w[fib n=-3] => /workload fib: n must be at least 1, got -3/,
      %w[alloc iterations=0] => /workload alloc: iterations must be at least 1/,
      %w[tarai x=big] => /workload tarai: x must be an integer, got "big"/
    }.each do |(workload, param), pattern|
      out = File.join(@dir, "bad.jsonl")
      assert_usage_error(ractorbench("run", "-w", workload, "--param", param, "-o", out), pattern)
      refute File.exist?(out), "a rejected run wrote #{out}"
    end
  end
end
