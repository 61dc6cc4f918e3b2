# frozen_string_literal: true

require "test_helper"
require "shellwords"
require "ractorbench/plan/catalog"
%w[spawn ring fan_in].each { |w| require File.join(ROOT, "harness", "workloads", w) }

# spawn, ring and fan-in (seed 002) bring their own code per model: the
# units, hops and messages they count come from real threads, ractors,
# fibers and processes; any other model is a "not supported" row.
class PrimitiveWorkloadsTest < Minitest::Test
  include CLIHelper

  include TempDir

  def models
    Ractorbench::Plan::Catalog.default.models.map(&:name)
  end

  def collect(workload, *args)
    out = File.join(@dir, "#{workload}-#{args.hash}.jsonl")
    result = ractorbench("run", "-w", workload, "--reps", "1", *args, "-o", out)
    assert_equal 0, result.code, result.err
    runs_in(out).to_h { |r| [r["model"], r] }
  end

  def assert_unsupported(run, workload)
    assert_equal "unsupported", run["status"], run["id"]
    assert_match(/#{workload} measures .* directly; it has no #{run["model"]} variant/, run["reason"])
  end

  def test_spawn_creates_and_joins_exactly_n_units_under_each_model
    runs = collect("spawn", "--workers", "7", "--messages", "3")
    measured = %w[threads ractors fibers processes] & models
    assert_includes measured, "threads"
    measured.each do |model|
      run = runs.fetch(model)
      assert_equal "ok", run["status"], "#{model}: #{run["reason"]}"
      assert_equal 21, run["results"], model
      assert_equal 21, run["units"], "#{model} should run 21 distinct units"
      assert_match(/\A#{model}: /, run["variant"])
    end
    (models - measured).each { |model| assert_unsupported(runs.fetch(model), "spawn") }
    assert_equal 1, runs.values.filter_map { |r| r["digest"] }.uniq.size
  end

  def test_spawn_with_gc_disabled_says_so
    runs = collect("spawn", "-m", "threads", "--workers", "5", "--messages", "1", "--param", "gc=off")
    assert_equal "off", runs.fetch("threads")["gc"]
    assert_equal({"gc" => "off"}, runs.fetch("threads")["params"])
  end

  def test_spawn_check_counts_distinct_units
    assert_nil Ractorbench::Workloads::Spawn.check([[1, :a], [2, :b]], 2, {})
    assert_match(/expected 2 distinct units, saw 1/, Ractorbench::Workloads::Spawn.check([[1, :a], [2, :a]], 2, {}))
    assert_match(/units should return 1..2 once each/, Ractorbench::Workloads::Spawn.check([[1, :a], [1, :b]], 2, {}))
  end

  def test_ring_counts_every_hop
    runs = collect("ring", "--param", "nodes=5", "--workers", "1", "--messages", "4")
    measured = %w[threads ractors fibers] & models
    measured.each do |model|
      run = runs.fetch(model)
      assert_equal "ok", run["status"], "#{model}: #{run["reason"]}"
      assert_equal 4, run["results"]
      assert_equal 5, run["nodes"]
      assert_equal 20, run["hops"], "#{model}: 4 laps of 5 nodes"
      assert_operator run["setup_time"], :>, 0
    end
    (models - measured).each { |model| assert_unsupported(runs.fetch(model), "ring") }
  end

  def test_ring_check_rejects_a_short_lap
    assert_match(/each lap should make 5 hops; 1 laps made 4/, Ractorbench::Workloads::Ring.check([5, 4], 2, nodes: 5))
  end

  def test_fan_in_gathers_every_message_by_select_and_by_mailbox
    digests = %w[select mailbox].flat_map do |via|
      runs = collect("fan-in", "-m", "ractors,threads,processes", "--workers", "3", "--messages", "20", "--param", "via=#{via}")
      runs.each_value do |run|
        next assert_match(/threads have no select/, run["reason"]) if via == "select" && run["model"] == "threads"

        assert_equal "ok", run["status"], "#{run["id"]}: #{run["reason"]}"
        assert_equal 60, run["results"]
        refute_nil run["variant"]
      end
      assert_match(/Ractor\.select over/, runs.fetch("ractors")["variant"]) if via == "select"
      runs.values.filter_map { |r| r["digest"] }
    end
    assert_equal 1, digests.uniq.size, "every fan-in variant must deliver the same messages"
  end

  def test_fan_in_check_notices_a_lost_message
    assert_match(/sender 1 delivered 2 messages but not 0..1/, Ractorbench::Workloads::FanIn.check([[0, 0], [1, 0], [1, 2]], 3, {}))
  end

  def test_bad_parameters_are_usage_errors
    {
      ["ring", "nodes=0"] => /workload ring: nodes must be at least 1, got 0/,
      ["ring", "nodes=-4"] => /workload ring: nodes must be at least 1, got -4/,
      ["spawn", "gc=sometimes"] => /workload spawn: gc must be one of on, off, got "sometimes"/,
      ["fan-in", "via=pigeon"] => /workload fan-in: via must be one of select, mailbox/
    }.each do |(workload, param), pattern|
      out = File.join(@dir, "bad.jsonl")
      assert_usage_error(ractorbench("run", "-w", workload, "--param", param, "-o", out), pattern)
      refute File.exist?(out)
    end
    assert_usage_error(ractorbench("run", "-w", "spawn", "--workers", "0"), /--workers/)
  end

  # Address space for 2,000 thread stacks is more than 600 MB allow, so the
  # OS refuses a thread; the failure must name the limit that did it. Ruby
  # 3.x says "can't create Thread", Ruby 4.0 "NoMemoryError: failed to
  # allocate memory".
  def test_a_refused_thread_names_the_limit
    out = File.join(@dir, "limit.jsonl")
    command = [RbConfig.ruby, EXE, "run", "-w", "spawn", "-m", "threads", "--workers", "2000", "--reps", "1", "-o", out].shelljoin
    _, err, status = Open3.capture3("ulimit -v 600000 && exec #{command}")
    assert_equal 1, status.exitstatus, err
    run = runs_in(out).first
    assert_equal "failed", run["status"]
    assert_match(/(can.t create Thread.*|NoMemoryError: failed to allocate memory) while creating 2000 threads at a time: .*limit reached: RLIMIT_AS .*RLIMIT_AS 600000 KB/, run["reason"])
  end
end
