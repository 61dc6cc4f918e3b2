# frozen_string_literal: true

require "test_helper"

# Bad input to `try`: one line on stderr naming the problem and the line of
# the user's file, exit 2, no stack trace, and no results file when the
# check stops it before any measurement.
class TryBadInputTest < Minitest::Test
  include CLIHelper

  def setup
    @dir = Dir.mktmpdir
    @results = File.join(@dir, "out.jsonl")
  end

  def teardown
    FileUtils.rm_rf(@dir)
  end

  def try(file, *args)
    ractorbench("try", file, "--workers", "1,2", "--reps", "1", "--items", "4", "-o", @results, *args, chdir: ROOT)
  end

  def assert_refused(result, pattern)
    assert_usage_error(result, pattern)
    refute File.exist?(@results), "nothing is written for bad input"
  end

  def test_missing_file
    assert_refused(try("test/fixtures/try/nope.rb"), %r{cannot read test/fixtures/try/nope\.rb: no such file})
  end

  # Two Rubies write two results files: one -o cannot name them.
  def test_one_output_for_two_rubies_is_refused_in_one_line
    result = try("examples/json_parse.rb", "--ruby", "ruby", "--ruby", RbConfig.ruby)
    assert_refused(result, /-o names one results file, and each --ruby's try writes its own \(named after its Ruby\): leave -o out/)
  end

  def test_syntax_error
    path = File.join(@dir, "broken.rb")
    File.write(path, "module Broken\n  def self.work(item)\n    item +\n  end\n")
    assert_refused(try(path), /broken\.rb:4: syntax error/)
  end

  def test_no_module_with_work
    assert_refused(try("test/fixtures/try/no_module.rb"), /no_module\.rb: defines no module with a work\(item\) method/)
  end

  def test_work_at_the_top_level
    assert_refused(try("test/fixtures/try/top_level.rb"), /top_level\.rb:3: work is defined at the top level; put it in a module/)
  end

  def test_items_raising
    assert_refused(try("test/fixtures/try/items_raise.rb"), /items_raise\.rb:5: ItemsRaise\.items\(\d+\) raised ZeroDivisionError/)
  end

  def test_items_returning_the_wrong_count
    assert_refused(try("test/fixtures/try/items_short.rb"), /items_short\.rb:4: ItemsShort\.items\(\d+\) returned 3 items; it must return exactly n/)
  end

  def test_work_raising
    assert_refused(try("test/fixtures/try/work_raises.rb"), /work_raises\.rb:9: WorkRaises\.work\(item 2\) raised ArgumentError: item 3 is not allowed/)
  end

  def test_results_that_change_from_call_to_call
    assert_refused(try("test/fixtures/try/nondeterministic.rb"), /nondeterministic\.rb:4: Nondeterministic\.work\(item 0\) returned .* and then/)
  end

  def test_work_that_never_finishes
    # Long enough for a loaded machine to start Ruby and reach work.
    result = try("test/fixtures/try/never_finishes.rb", "--timeout", "4")
    assert_refused(result, /never_finishes\.rb:5: work\(item\) did not finish within 4s \(--timeout\); it was running `sleep`/)
  end

  # Serial agrees with itself and with a ractor in its own process. Threads
  # side by side in the check return something else, so threads are not
  # swept; the sweep finds forked workers differ too.
  def test_results_that_differ_between_models
    result = try("test/fixtures/try/model_dependent.rb")
    assert_usage_error(result, /model_dependent\.rb:9: work returned different results under processes \(W=1,2\)/)
    assert_match(/\ASweep: serial, processes, processes-split, ractors-batched, ractors-split at W=1,2/, result.out, "the plan, printed before the sweep")
    refute_match(/speedup|Recommendation/, result.out, "no report of timings that compare different computations")
    assert File.exist?(@results), "the runs are kept as evidence"
    runs = runs_in(@results)
    refute_includes runs.map { |r| r["model"] }, "threads", "the check ruled threads out"
    assert_match(/it returns different results in threads/, results_lines(@results).first.dig("try", "excluded", "threads").to_s)
    digests = runs.group_by { |r| r["model"] }.transform_values { |rs| rs.map { |r| r["digest"] }.uniq }
    refute_equal digests["serial"], digests["processes"]
    assert_equal digests["serial"], digests["ractors-batched"]
    assert_equal digests["serial"], digests["ractors-split"]
  end

  def test_bad_options
    assert_usage_error(ractorbench("try"), /try needs one FILE/)
    assert_usage_error(ractorbench("try", "examples/json_parse.rb", "--workers", "0"), /--workers must be a positive integer/)
    assert_usage_error(ractorbench("try", "examples/json_parse.rb", "--models", "nope", chdir: ROOT), /unknown model "nope"/)
  end
end
