# frozen_string_literal: true

require "test_helper"

# try sweeps every family in the shapes a Ruby engineer would write for a
# list of items — threads from a queue; processes and ractors fed batches
# sized by the item's cost, and a static split — and records how each run
# handed the work out, so a test can check the shape without a clock.
# (`rake bench:fair_fight` measures the best ractor shape against a
# hand-written two-ractor split.)
class TryFairFightTest < Minitest::Test
  include CLIHelper
  include TempDir

  def try(file, *args)
    out = File.join(@dir, "#{File.basename(file, ".rb")}.jsonl")
    result = ractorbench("try", "test/fixtures/try/#{file}", "--workers", "2", "--reps", "1", "--no-fibers", *args,
      "-o", out, chdir: ROOT)
    [result, runs_in(out)]
  end

  def test_every_family_is_swept_in_its_best_shapes_and_each_run_records_its_shape
    result, runs = try("fine_grained.rb", "--items", "2000")
    assert_includes [0, 1], result.code, result.out + result.err
    swept = %w[serial threads processes processes-split ractors-batched ractors-split]
    assert_match(/^Sweep: #{swept.join(", ")} at W=2;/, result.out)
    assert_equal swept.sort, runs.map { |r| r["model"] }.uniq.sort
    assert(runs.all? { |r| r["status"] == "ok" }, runs.reject { |r| r["status"] == "ok" }.map { |r| r["reason"] }.inspect)
    assert_equal 1, runs.map { |r| r["digest"] }.uniq.size, "every model returned the same results"

    by_model = runs.to_h { |r| [r["model"], r] }
    %w[processes-split ractors-split].each do |split|
      assert_equal [1000, 1000], by_model[split]["worker_jobs"], "#{split}: equal shares"
      assert_equal [1, 1], by_model[split]["worker_batches"], "#{split}: one hand-over each"
    end
    %w[processes ractors-batched].each do |batched|
      jobs = by_model[batched]["worker_jobs"]
      batches = by_model[batched]["worker_batches"]
      assert_equal 2000, jobs.sum
      assert(jobs.all? { |n| n >= 200 }, "#{batched}: both workers took a real share: #{jobs.inspect}")
      assert(batches.zip(jobs).all? { |b, n| b.positive? && b * 4 <= n }, "#{batched}: batches of several items: #{batches.inspect} for #{jobs.inspect}")
    end
  end

  def test_the_seeds_per_message_ractors_are_swept_only_when_asked_for
    result, runs = try("fine_grained.rb", "--items", "200", "-m", "ractors,ractors-batched")
    assert_includes [0, 1], result.code, result.out + result.err
    assert_equal %w[ractors ractors-batched serial], runs.map { |r| r["model"] }.uniq.sort
    per_item = runs.find { |r| r["model"] == "ractors" }
    assert_equal 200, per_item["worker_jobs"].sum
  end

  # Results too big to copy cheaply: the split shape returns them as each
  # ractor's final value, handed over uncopied, and computes the same.
  def test_big_results_run_under_the_split_shape
    result, runs = try("big_results.rb", "--items", "8")
    assert_includes [0, 1], result.code, result.out + result.err
    split = runs.select { |r| r["model"] == "ractors-split" }
    assert_equal ["ok"], split.map { |r| r["status"] }
    assert_equal [4, 4], split.first["worker_jobs"].sort
    assert_equal 1, runs.map { |r| r["digest"] }.uniq.size, "every model returned the same results"
  end
end
