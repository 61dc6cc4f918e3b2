# frozen_string_literal: true

require "test_helper"
require "csv"
require "ractorbench/analysis/ops_per_second"
require_relative "../harness/ractorbench/harness/async_subject"

# The ops-per-second harness and the concurrently suite (issue 4, seed 001).
class OpsPerSecondTest < Minitest::Test
  include CLIHelper

  SUITE_SUBJECTS = Ractorbench::Plan::ConcurrentlyTables::ALL.flat_map(&:subjects).uniq

  def figures(samples:, loops:, batch_size: 100)
    Ractorbench::Analysis::OpsPerSecond::RunFigures.new("batch_size" => batch_size, "samples" => samples, "loop_samples" => loops)
  end

  # 1000 batches of 100 in 0.1 s is 1000 ns an operation; the empty loop's
  # fastest sample, 4000 batches in 0.1 s, is 250 ns; what is left is 750 ns.
  def test_the_empty_loops_fastest_sample_is_taken_off_each_sample
    f = figures(samples: [[1000, 0.1], [500, 0.1]], loops: [[3000, 0.1], [4000, 0.1], [2000, 0.1]])
    assert_in_delta 250.0, f.loop_ns, 1e-9
    assert_equal [1000.0, 2000.0], f.gross_ns.map { |x| x.round(9) }
    assert_equal [750.0, 1750.0], f.net_ns.map { |x| x.round(9) }
    assert_in_delta 1e9 / 750, f.net_rates.first, 1e-6
    assert_in_delta 1e6, f.gross_rates.first, 1e-6
  end

  def test_a_sample_no_slower_than_the_empty_loop_has_no_rate
    f = figures(samples: [[1000, 0.1], [990, 0.1]], loops: [[1000, 0.1]])
    assert_in_delta 0.0, f.net_ns.first, 1e-9
    assert_nil f.net_rates.first
    assert_in_delta 1e9 / (1e9 * 0.1 / 99_000 - 1000), f.net_rates.last, 1e-3
  end

  def test_the_seed_line_comes_from_the_median_sample
    f = figures(samples: [[10, 1.0], [30, 1.0], [20, 1.0]], loops: [[100, 1.0]])
    assert_equal [2000, 1.0], f.median_sample
  end

  # Every subject of the three tables, for real, in its own child: each
  # ran exactly as many times as the harness timed, and each row of the
  # three tables has ops/s and a spread.
  def test_the_suite_prints_three_tables_and_every_subject_ran_as_counted
    Dir.mktmpdir do |dir|
      out = File.join(dir, "c.jsonl")
      # --wide: the seed's own columns ("N executions in T seconds").
      result = ractorbench("run", "--suite", "concurrently", "--time", "0.01", "--param", "samples=3", "--wide", "-o", out)
      assert_equal 0, result.code, result.err + result.out
      runs = runs_in(out)
      assert_equal SUITE_SUBJECTS.sort, runs.map { |r| r.dig("params", "subject") }.uniq.sort
      runs.each do |run|
        ops = run.fetch("ops")
        batches = ops["warmup"][0] + ops["samples"].sum(&:first)
        assert_equal "ok", run["status"], run.inspect
        assert_equal batches * ops["batch_size"], ops["executions"], run["id"]
        assert_equal ops["executions"], ops["counted"], "#{run["id"]}: the subject did not run as often as timed"
        assert_operator ops["counted"], :>=, 3 * 100, run["id"]
      end
      Ractorbench::Plan::ConcurrentlyTables::ALL.each { |t| assert_includes result.out, t.title }
      assert_match(/conproc\.call_detached +\| Async::Task\.new \+ scheduler\.push; wait 0 a batch/, result.out)
      rows = result.out.lines.grep(/executions in/)
      assert_equal Ractorbench::Plan::ConcurrentlyTables::ALL.sum { |t| t.subjects.size }, rows.size, "one row per table entry"
      rows.each { |row| assert_match(/\d executions in \d\.\d{4} seconds \| +[\d,]+ ± [\d,]+ \| +\d+\.\d%/, row) }
    end
  end

  # The empty loop is measured in the same run and subtracted sample by
  # sample: what is left is each sample's gross cost minus the fastest loop
  # sample. (How small that leaves the empty subject is a timing question,
  # for `rake bench:ips_peer`, not a test on a shared machine.)
  def test_the_empty_loop_is_measured_and_subtracted_from_every_sample
    Dir.mktmpdir do |dir|
      out = File.join(dir, "e.jsonl")
      result = ractorbench("run", "-w", "ops-per-second", "-m", "serial", "--param", "subject=empty", "--param", "samples=9",
        "--time", "0.05", "--workers", "1", "--messages", "100", "--reps", "1", "-o", out)
      assert_equal 0, result.code, result.err
      ops = runs_in(out).first.fetch("ops")
      assert_equal ops["executions"], ops["counted"]
      f = Ractorbench::Analysis::OpsPerSecond::RunFigures.new(ops)
      assert_equal 9, ops.fetch("samples").size
      refute_empty ops.fetch("loop_samples")
      assert_operator f.loop_ns, :>, 0
      f.gross_ns.zip(f.net_ns).each { |gross, net| assert_in_delta gross - f.loop_ns, net, 1e-9 }
    end
  end

  def test_async_rows_are_skipped_on_a_ruby_without_async
    Dir.mktmpdir do |dir|
      out = File.join(dir, "b.jsonl")
      bare = "bare=env GEM_PATH=#{dir}/none GEM_HOME=#{dir}/none #{RbConfig.ruby}"
      result = ractorbench("run", "--ruby", bare, "--load", fixture("napping_jobs.rb"), "-w", "ops-per-second,napping-jobs",
        "-m", "fibers", "--param", "subject=conproc-call", "--time", "0.01", "--workers", "1", "--messages", "2", "--reps", "1", "-o", out)
      assert_equal 0, result.code, result.err
      runs = runs_in(out)
      assert_equal %w[unsupported unsupported], runs.map { |r| r["status"] }
      runs.each { |r| assert_match(/async not available on ruby \d/, r["reason"]) }
      assert_match(/^conproc\.call +task\.async \{ \}\.wait +fibers +skipped$/, result.out)
      assert_match(/^conproc-call on bare: skipped: async not available on ruby \d/, result.out)
      refute_match(/Error|backtrace/, result.err)
    end
  end

  # The JSON report's ops rows keep their keys, in order: a skipped row only
  # what names it, a measured one its figures after (no "clock": this
  # Ruby's child names none); and every format shows the same figures.
  NAMES = %w[table subject model ruby seed ran runs unsupported failed].freeze
  FIGURES = %w[samples ops_per_second net_ns_per_op gross_ops_per_second loop_ns_per_op executions seconds gc gc_note async].freeze
  SUMMARY = %w[samples mean median variance stddev min max].freeze

  def test_the_json_rows_keep_their_keys_and_every_format_the_same_figures
    Dir.mktmpdir do |dir|
      out = File.join(dir, "j.jsonl")
      bare = "bare=env GEM_PATH=#{dir}/none GEM_HOME=#{dir}/none #{RbConfig.ruby}"
      result = ractorbench("run", "--ruby", bare, "--ruby", "here=#{RbConfig.ruby}", "-w", "ops-per-second", "-m", "fibers",
        "--param", "subject=conproc-call", "--param", "samples=3", "--time", "0.01", "--workers", "1", "--messages", "100",
        "--reps", "2", "-o", out)
      assert_equal 0, result.code, result.err
      rows = JSON.parse(ractorbench("report", out, "--format", "json").out).fetch("ops_per_second").to_h { |r| [r["ruby"], r] }
      skipped, measured = rows.values_at("bare", "here")
      assert_equal NAMES, skipped.keys
      assert_equal [0, []], skipped.values_at("runs", "failed")
      assert_match(/\Aasync not available on ruby \d/, skipped["unsupported"])
      assert_equal NAMES + FIGURES, measured.keys
      assert_equal [2, 6, "on"], measured.values_at("runs", "samples", "gc")
      assert_equal SUMMARY + ["relative_spread"], measured["ops_per_second"].keys
      assert_equal [SUMMARY, SUMMARY], measured.values_at("net_ns_per_op", "gross_ops_per_second").map(&:keys)
      assert_equal 6, measured["gross_ops_per_second"]["samples"]

      ops = measured["ops_per_second"]
      csv = CSV.parse(ractorbench("report", out, "--format", "csv").out, headers: true).find { |r| r["ruby"] == "here" }
      assert_equal [ops["mean"], ops["stddev"], measured["loop_ns_per_op"]],
        csv.values_at("ops_per_second_mean", "ops_per_second_stddev", "ops_loop_ns_per_op").map { |v| v && Float(v) }
      grouped = ->(v) { v.nil? ? "-" : v.round.to_s.reverse.scan(/\d{1,3}/).join(",").reverse }
      cell = ops["samples"].zero? ? "within the loop's noise" : "#{grouped[ops["mean"]]} ± #{grouped[ops["stddev"]]}"
      assert_includes ractorbench("report", out, "--format", "markdown").out, "| fibers | here | 6 | #{measured["executions"]} executions in "
      assert_includes ractorbench("report", out, "--format", "text").out, cell
    end
  end

  # A wait for an empty pipe suspends the fiber, not the thread, and is not
  # counted until data arrives; a pipe holding data counts at once.
  def test_a_pipe_without_data_is_never_counted_readable
    subject = Ractorbench::Harness::Subject.find("await-readable")
    subject.within do |_|
      subject.prepare
      empty_r, empty_w = IO.pipe
      waiter = Async { subject.run([[empty_r, empty_w]]) }
      1000.times { Fiber.scheduler.yield }
      assert_equal 0, subject.count, "counted a pipe with no data as readable"
      assert waiter.running?
      empty_w.write("x")
      Async::Task.current.with_timeout(10) { waiter.wait }
      assert_equal 1, subject.count
      subject.run(subject.batch(3))
      assert_equal 4, subject.count
    end
  end

  def test_bad_ops_parameters_are_usage_errors
    assert_usage_error ractorbench("run", "-w", "ops-per-second", "-m", "serial"), /needs --param subject=NAME, one of: .*proc-call/
    assert_usage_error ractorbench("run", "-w", "ops-per-second", "-m", "serial", "--param", "subject=nope"), /unknown subject "nope"/
    assert_usage_error ractorbench("run", "-w", "ops-per-second", "-m", "serial", "--param", "subject=proc-call", "--param", "gc=maybe"), /gc must be one of on, off/
    assert_usage_error ractorbench("run", "--suite", "concurrently", "--time", "0"), /--time must be a positive number/
  end
end
