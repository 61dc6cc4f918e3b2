# frozen_string_literal: true

require "test_helper"
require "ractorbench/commands/try"
require "ractorbench/advisor/recommendation"

# `ractorbench try` on each example under examples/, for real: a check
# child, then one child per run under serial, threads, processes and
# ractors. Tiny item counts, one or two runs and two worker counts keep it
# short; what is asserted is the outcome, never a timing.
class TryExamplesTest < Minitest::Test
  include CLIHelper

  include TempDir

  def try(file, *args)
    @results = File.join(@dir, "#{File.basename(file, ".rb")}.jsonl")
    ractorbench("try", file, "--workers", "1,2", "--reps", "1", "-o", @results, *args, chdir: ROOT)
  end

  def assert_swept(result, models)
    assert_equal 0, result.code, result.out + result.err
    assert_match(/Every model returned the same results as serial/, result.out)
    assert_match(/speedup over serial \(median\)/, result.out)
    assert_match(/Recommendation: /, result.out)
    ran = runs_in(@results)
    assert ran.all? { |r| r["status"] == "ok" }, ran.reject { |r| r["status"] == "ok" }.map { |r| r["reason"] }.inspect
    assert_equal models.sort, ran.map { |r| r["model"] }.uniq.sort
    assert_equal 1, ran.map { |r| r["digest"] }.uniq.size, "every model and worker count computed the same digest"
    models.each { |m| assert_match(/^#{m}\s+\d+\s+\d+\s/, result.out, "a table row for #{m}") }
  end

  # The models swept by default follow what the check measured and recorded:
  # fibers join when the work waited more than half its time, which a busy
  # machine can make CPU-bound work seem to do; the test holds to the record.
  def test_json_parsing_runs_under_every_model
    result = try("examples/json_parse.rb", "--items", "8")
    preflight = results_lines(@results).first.dig("try", "preflight")
    expected = Ractorbench::Advisor::ModelChoice.default_models(Ractorbench::Plan::Catalog.default).dup
    expected << "fibers" if preflight["cpu_share"] < Ractorbench::Advisor::Recommendation::WAITS
    assert_swept(result, expected)
    assert_match(/JsonParse\.work on 8 items/, result.out)

    # Its file alone gives the screen try ended with again (the README shows a recorded try this way).
    again = ractorbench("report", @results, "--format", "summary", chdir: ROOT)
    assert_equal 0, again.code, again.err
    assert_match(%r{\Aractorbench try examples/json_parse\.rb: JsonParse\.work on 8 items}, again.out)
    assert result.out.end_with?(again.out), "try ended with:\n#{result.out}\nreport --format summary gave:\n#{again.out}"
  end

  def test_string_crunching_runs_under_every_model
    result = try("examples/string_crunch.rb", "--items", "6")
    assert_swept(result, Ractorbench::Advisor::ModelChoice.default_models(Ractorbench::Plan::Catalog.default))
    # The sweep's jobs are the same items at every worker count: serial ran once.
    assert_equal [[1, 6]], runs_in(@results).select { |r| r["model"] == "serial" }.map { |r| [r["workers"], r["messages"]] }
    assert_equal [[1, 6], [2, 3]], runs_in(@results).select { |r| r["model"] == "threads" }.map { |r| [r["workers"], r["messages"]] }.sort
  end

  # The check measures how much of work's time is CPU; sleeping is not.
  def test_io_bound_work_is_recognised_as_waiting
    result = try("examples/slow_service.rb", "--items", "4")
    expected = Ractorbench::Advisor::ModelChoice.default_models(Ractorbench::Plan::Catalog.default).dup
    expected << "fibers" if File.exist?(File.join(HARNESS_DIR_FOR_TEST, "models", "fibers.rb"))
    assert_swept(result, expected)
    header = results_lines(@results).first
    assert_operator header.dig("try", "preflight", "cpu_share"), :<, 0.5
  end

  def test_the_unsafe_example_is_diagnosed_and_the_other_models_still_run
    result = try("examples/unsafe_cache.rb", "--items", "6")
    assert_equal 0, result.code, "the models ruled out are part of the answer: #{result.err}"
    assert_match(/^Recommendation: /, result.out)
    assert_match(/^ractors: cannot run this work: not Ractor-safe$/, result.out)
    assert_match(/what:  constant UnsafeCache::CACHE \(a Hash, not frozen\)/, result.out)
    assert_match(%r{where: examples/unsafe_cache\.rb:16   CACHE\[n\] \|\|= slow_square\(n\)}, result.out)
    assert_match(/fix:   work changes it.*Ractor\.current\[:cache\]/, unwrapped(result.out))
    assert_match(/ractors-batched and ractors-split were not run: ractors cannot run this work/, unwrapped(result.out))
    assert_equal %w[processes processes-split serial threads], runs_in(@results).map { |r| r["model"] }.uniq.sort
    refute_match(/\.rb:\d+:in /, result.out + result.err, "no stack trace")
  end

  HARNESS_DIR_FOR_TEST = File.join(ROOT, "harness")
end
