# frozen_string_literal: true

require "test_helper"
require "synthetic_results"

# try's answer follows its figures: families compete by their best shape,
# "stay serial" only when every model had runs enough and none was faster,
# the fewest workers within the noise of the best, threads before fibers
# when they tie, and what per-item messages cost next to batches. The sweeps
# are written here (SyntheticResults) so that each case's figures are known.
class RecommendationTest < Minitest::Test
  include TempDir

  ITEMS = 1200
  SERIAL = 0.240
  CATALOG = Ractorbench::Plan::Catalog.default

  # speedups: {[model, workers] => median speedup}; n: runs of each point.
  def recommend(speedups, n: 6, spread: 0.02, cpu_share: 1.0, serial_n: n)
    samples = {["try", "serial", 1, ITEMS, "ruby"] => SyntheticResults.draws(serial_n, median: SERIAL, spread: spread, seed: 7)}
    speedups.each_with_index do |((model, workers), speedup), i|
      samples[["try", model, workers, ITEMS / workers, "ruby"]] =
        SyntheticResults.draws(n, median: SERIAL / speedup, spread: spread, seed: 11 + i)
    end
    preflight = {"module" => "Work", "seconds_per_item" => SERIAL / ITEMS, "cpu_share" => cpu_share, "status" => "ok",
                 "threads_problems" => [], "ractor_problems" => [], "ractor_available" => true, "fork_available" => true}
    path = SyntheticResults.write(File.join(@dir, "try.jsonl"), samples, machine: {"usable_cores" => 2},
      header: {"families" => CATALOG.families, "shapes" => CATALOG.shapes,
               "try" => {"file" => "work.rb", "module" => "Work", "items" => ITEMS, "preflight" => preflight,
                         "excluded" => {}, "patterns" => CATALOG.patterns}})
    outcome = Ractorbench::Advisor::Outcome.new(Ractorbench::Analysis.new(Ractorbench::Store.read(path)))
    [outcome.recommendation, outcome.report(width: 100).to_s]
  end

  def test_families_compete_by_their_best_shape_and_the_shape_is_named_with_its_pattern
    advice, screen = recommend({["threads", 2] => 1.0, ["processes", 2] => 1.6, ["processes-split", 2] => 1.7,
                                ["ractors", 2] => 1.0, ["ractors-batched", 2] => 1.85, ["ractors-split", 2] => 1.93})
    assert_match(/\ARecommendation: use ractors, each taking an equal share of the items \(ractors-split\): 1\.9\d× \[[\d.]+, [\d.]+\] faster than serial with 2 workers/, advice.first)
    assert(advice.any? { |l| l =~ /\Abest of the others: threads [01]\.\d\d×.*not faster beyond the noise.*forked processes 1\.[67]\d×/ }, advice.join("\n"))
    assert(advice.any? { |l| l =~ /\Aractors \(one message each way per item\) ran [01]\.\d\d× .* at W=2, [\d.]+ µs more an item than ractors-split/ }, advice.join("\n"))
    assert_match(/^The same shape in your code \(ractors-split at W=2; items: your inputs\):\n    shares = items\.each_slice\(\(items\.size \+ 2 - 1\) \/ 2\)/, screen)
    assert_match(/Work\.work\(item\)/, screen)
  end

  def test_a_model_faster_in_every_run_is_never_stay_serial
    advice, = recommend({["threads", 2] => 1.0, ["processes", 2] => 1.65}, n: 3, serial_n: 3)
    refute_match(/stay serial/, advice.join("\n"))
    assert_match(/\ARecommendation: use forked processes/, advice.first)
  end

  def test_too_few_runs_is_said_and_not_stay_serial
    advice, = recommend({["threads", 2] => 1.0, ["processes", 2] => 1.23}, n: 1, serial_n: 1)
    assert_match(/\ARecommendation: too few runs to tell: processes ran 1\.23× with 2 workers in 1 run/, advice.first)
    assert_includes advice, "run again with --reps 6 or more"
    refute_match(/stay serial/, advice.join("\n"))
  end

  def test_stay_serial_only_when_every_model_had_runs_enough_and_none_was_faster
    advice, = recommend({["threads", 2] => 0.99, ["processes", 2] => 1.01, ["ractors-split", 2] => 0.97}, spread: 0.05)
    assert_match(/\ARecommendation: stay serial: no model ran this work faster than serial beyond the noise \(best: processes 1\.0\d× \[/, advice.first)
  end

  def test_the_fewest_workers_within_the_noise_of_the_best
    advice, = recommend({["processes", 1] => 0.97, ["processes", 2] => 1.44, ["processes", 3] => 1.45, ["processes", 4] => 1.43})
    assert_match(/with 2 workers/, advice.first)
    assert(advice.any? { |l| l =~ /\Aprocesses with 3 workers ran 1\.4\d× .*within the noise of this: the fewer workers do as well/ }, advice.join("\n"))
    refute(advice.any? { |l| l =~ /the work waits/ }, "CPU-bound work is never said to wait")
  end

  def test_threads_before_fibers_when_they_tie
    advice, = recommend({["threads", 4] => 3.97, ["fibers", 4] => 3.99}, cpu_share: 0.02)
    assert_match(/\ARecommendation: use threads, pulling items one at a time from a shared queue \(threads\): 3\.9\d×/, advice.first)
    assert(advice.any? { |l| l =~ /\Afibers 3\.9\d× .* ran within the noise of it \(95% intervals overlap\); threads are the simpler change/ }, advice.join("\n"))
  end

  # The tie is one test, the same both ways round: whichever family is
  # easier, a family whose interval lies wholly below the other's is slower,
  # by how much, and never "within the noise".
  def test_a_family_clearly_slower_is_slower_whichever_is_the_simpler
    advice, = recommend({["threads", 4] => 1.58, ["processes", 4] => 1.87}, cpu_share: 0.3)
    assert_match(/\ARecommendation: use forked processes, /, advice.first)
    refute_match(/within the noise/, advice.join("\n"))
    assert(advice.any? { |l| l =~ /threads 1\.5\d× \[[\d.]+, [\d.]+\] \(threads, W=4, 1[5-7]% slower than processes\)/ }, advice.join("\n"))
    advice, = recommend({["processes", 4] => 1.58, ["ractors-split", 4] => 1.87})
    assert_match(/\ARecommendation: use ractors, /, advice.first)
    assert(advice.any? { |l| l =~ /forked processes 1\.5\d× .*1[5-7]% slower than ractors-split/ }, advice.join("\n"))
  end

  # Within 5% is not a tie when the intervals part: fibers ran faster.
  def test_within_five_percent_with_intervals_apart_is_slower
    advice, = recommend({["threads", 4] => 3.80, ["fibers", 4] => 3.97}, cpu_share: 0.15, spread: 0.001)
    assert_match(/\ARecommendation: use fibers, /, advice.first)
    refute_match(/within the noise/, advice.join("\n"))
    assert(advice.any? { |l| l =~ /threads 3\.8\d× .*4% slower than fibers/ }, advice.join("\n"))
  end

  def test_overlapping_families_tie_both_ways_round
    [[1.80, 1.84], [1.84, 1.80]].each do |threads, processes|
      advice, = recommend({["threads", 4] => threads, ["processes", 4] => processes}, cpu_share: 0.3, spread: 0.08)
      assert_match(/\ARecommendation: use threads, /, advice.first, "threads #{threads}, processes #{processes}")
      assert(advice.any? { |l| l =~ /\Aprocesses 1\.\d\d× .* ran within the noise of it \(95% intervals overlap\); threads are the simpler change/ }, advice.join("\n"))
    end
  end

  # Two runs of each: no interval, so their times decide; with one run of
  # a family, nothing can be told, and it is said.
  def test_too_few_runs_tie_only_when_their_runs_overlap
    advice, = recommend({["threads", 4] => 1.82, ["processes", 4] => 1.82}, n: 2, cpu_share: 0.3, spread: 0.1)
    assert(advice.any? { |l| l =~ /ran within the noise of it \(the runs' times overlap\)/ }, advice.join("\n"))
    advice, = recommend({["threads", 4] => 1.50, ["processes", 4] => 1.84}, n: 2, cpu_share: 0.3, spread: 0.01)
    assert_match(/\ARecommendation: use forked processes/, advice.first)
    assert(advice.any? { |l| l =~ /threads 1\.50× \(threads, W=4, 1[89]% slower than processes\)/ }, advice.join("\n"))
  end
end
