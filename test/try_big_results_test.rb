# frozen_string_literal: true

require "test_helper"

# `ractors` sends each result as a message, which copies it; a ractor program
# written by hand returns its results as its final value, handed over
# uncopied. For big results try also sweeps ractors-split, which does that,
# and says why; for small ones it does not.
class TryBigResultsTest < Minitest::Test
  include CLIHelper
  include TempDir

  def try(file)
    out = File.join(@dir, "#{File.basename(file, ".rb")}.jsonl")
    result = ractorbench("try", "test/fixtures/try/#{file}", "--workers", "2", "--reps", "1", "--items", "8",
      "--no-fibers", "-o", out, chdir: ROOT)
    [result, runs_in(out)]
  end

  def test_big_results_add_ractors_split_and_say_why
    result, runs = try("big_results.rb")
    assert_includes [0, 1], result.code, result.out + result.err
    assert_match(/^Sweep: serial, threads, processes, ractors, ractors-split at W=2;/, result.out)
    assert_match(/^  ractors-split too: a result is \d+ KB \(Marshal\), and `ractors` copies each one as it sends it;/,
      unwrapped(result.out))
    split = runs.select { |r| r["model"] == "ractors-split" }
    assert_equal ["ok"], split.map { |r| r["status"] }
    assert_equal 1, runs.map { |r| r["digest"] }.uniq.size, "every model returned the same results"
    assert_equal [4, 4], split.first["worker_jobs"].sort
  end

  def test_small_results_sweep_the_usual_models
    result, runs = try("coarse.rb")
    assert_includes [0, 1], result.code, result.out + result.err
    refute_match(/ractors-split/, result.out)
    refute_includes runs.map { |r| r["model"] }, "ractors-split"
  end
end
