# frozen_string_literal: true

require "test_helper"

# `--resume` trusts the header. Promise: the plan a header recorded (its
# recipe, built again and checked against its digest; or, in a file written
# before the recipe, every run listed) is checked as a command line is
# (workloads, models, sizes, timeout, Rubies, every planned run's fields) and
# the file's runs must be runs of it, before any line is written or cut: one
# line, exit 2, the file byte for byte as it was.
class ResumeChecksTest < Minitest::Test
  include CLIHelper
  include TempDir

  def setup
    super
    @out = File.join(@dir, "r.jsonl")
    made = ractorbench("run", "-w", "noop", "-m", "serial,threads", "--workers", "1", "--messages", "1", "--reps", "2",
      "-o", @out)
    assert_equal 0, made.code, made.err
    # The last run left to do, and half of a line a killed collector left.
    lines = File.readlines(@out)
    File.write(@out, lines[0..-2].join + lines.last[0, 30])
    @header = JSON.parse(lines.first)
  end

  def test_a_header_without_a_plan_or_with_a_broken_run_is_refused
    refused(/cannot resume .*r\.jsonl: its header has no plan; it can only be run again from the start/) { |h| h.delete("plan") }
    refused(/run 1 of its header's plan has workers nil, not a positive integer/) { |h| h["plan"]["runs"][0].delete("workers") }
    refused(/run 2 of its header's plan has no model/) { |h| h["plan"]["runs"][1]["model"] = 7 }
    refused(/its header's plan has no runs/) { |h| h["plan"]["runs"] = [] }
  end

  # Negative workers used to give failed runs every report skipped, and exit 0.
  def test_sizes_are_checked_as_the_command_lines
    refused(/run 3 of its header's plan has workers -2, not a positive integer/) { |h| h["plan"]["runs"][2]["workers"] = -2 }
    refused(/run 1 of its header's plan has rep 0/) { |h| h["plan"]["runs"][0]["rep"] = 0 }
    refused(/not one ractorbench would run \(noop W=1 M=1000000000000000: one run would take about .* far beyond --timeout 600s/) do |h|
      h["plan"]["runs"][0]["messages"] = 10**15
    end
    refused(/not one ractorbench would run \(a run of noop under threads at W=1000000 starts about 1000000 threads at once/) do |h|
      h["plan"]["runs"].each { |r| r["workers"] = 1_000_000 }
    end
  end

  # An unknown workload used to be found only after some runs: the file
  # gained lines and could never be finished.
  def test_unknown_names_and_parameters_are_refused
    refused(/not one ractorbench would run \(unknown workload "nope"; known: /) { |h| h["plan"]["runs"][3]["workload"] = "nope" }
    refused(/unknown model "nope"/) { |h| h["plan"]["runs"][0]["model"] = "nope" }
    refused(/--param n: workload noop takes none/) { |h| h["plan"]["runs"][0]["params"] = {"n" => 3} }
    refused(/run 1 of its header's plan names Ruby "elsewhere", which its header does not describe/) do |h|
      h["plan"]["runs"][0]["ruby"] = "elsewhere"
    end
  end

  # A timeout of 0 or -1 was accepted, though the command line refuses both.
  def test_the_timeout_and_the_rubies_are_checked
    refused(/damaged header \(its timeout is 0, not a number above 0\)/) { |h| h["timeout"] = 0 }
    refused(/damaged header \(its timeout is -1, not a number above 0\)/) { |h| h["timeout"] = -1 }
    refused(/Ruby 1 of its header \("ruby"\) has no command to start it/) { |h| h["rubies"][0]["argv"] = [] }
    refused(/its header names no Ruby/) { |h| h["rubies"] = [] }
  end

  # Round one's last failure: runs of another plan were counted as done
  # and kept, with no word.
  def test_runs_of_another_plan_are_refused
    refused(/it holds 3 runs its header's plan does not have \(the first: noop\/\w+\/w1\/m1\/ruby\/rep\d\), runs of another plan/) do |h|
      h["plan"]["runs"].each { |r| r["messages"] = 2 }
    end
  end

  def test_a_file_with_a_recipe_resumes
    assert_equal %w[seed recipe size digest], @header["plan"].keys, "the header holds the plan's recipe, not its runs"
    result = ractorbench("run", "--resume", @out)
    assert_equal 0, result.code, result.err
    assert_equal 4, runs_in(@out).size
    assert_equal Ractorbench::Plan::Matrix.from_h(@header["plan"]).runs.map(&:id).sort, runs_in(@out).map { |r| r["id"] }.sort
  end

  # A file written before the recipe lists every planned run in its header.
  def test_a_file_with_every_planned_run_listed_resumes
    rewrite(listed(@header))
    result = ractorbench("run", "--resume", @out)
    assert_equal 0, result.code, result.err
    assert_match(/resuming .*: 3 runs done, 1 to go/, result.err)
    assert_equal listed(@header)["plan"]["runs"].map { |r| Ractorbench::Plan::RunSpec.from_h(r).id }.sort,
      runs_in(@out).map { |r| r["id"] }.sort
  end

  # A recipe that does not build the runs its digest names (edited, or
  # written by a version that builds plans otherwise) is refused.
  def test_a_recipe_whose_digest_does_not_match_is_refused
    refused(/\Aractorbench: cannot resume .*r\.jsonl: its header's plan recipe builds other runs than those it recorded \(digest sha256:\h+\.\.\., recorded sha256:\h+\.\.\.\): edited, or written by another version; it can only be run again from the start \(-o\)\n\z/, listed: false) do |h|
      h["plan"]["seed"] = seed_with_another_order(h["plan"])
    end
    refused(/its header's plan recipe builds other runs than those it recorded/, listed: false) { |h| h["plan"]["recipe"]["reps"] = 3 }
    refused(/its header's plan recipe builds other runs than those it recorded/, listed: false) { |h| h["plan"]["digest"] = "sha256:0" }
    refused(/its header's plan has a recipe that builds no plan/, listed: false) { |h| h["plan"]["recipe"].delete("entries") }
    refused(/its header's plan has a recipe that builds no plan/, listed: false) { |h| h["plan"]["recipe"]["reps"] = "2" }
    # Checked before it is built: a recipe of a trillion runs is no plan to build.
    refused(/not one ractorbench would run \(this plan has 2000000000000 runs, over a day/, listed: false) do |h|
      h["plan"]["recipe"]["reps"] = 10**12
    end
    refused(/not one ractorbench would run \(--shard 1\/0: N/, listed: false) { |h| h["plan"]["shard"] = {"index" => 1, "count" => 0} }
  end

  private

  # A seed whose plan runs in another order than this one's: with four runs,
  # one seed in 24 would shuffle them the same way and be no edit at all.
  def seed_with_another_order(plan)
    ids = ->(seed) { Ractorbench::Plan::Matrix.from_recipe(plan.merge("seed" => seed)).runs.map(&:id) }
    (plan["seed"] + 1..).find { |seed| ids.call(seed) != ids.call(plan["seed"]) }
  end

  # The header changed by the block (with its plan's runs listed, unless
  # listed: false); --resume refused, nothing run, the file untouched.
  def refused(message, listed: true)
    header = JSON.parse(JSON.generate(listed ? listed(@header) : @header))
    yield header
    rewrite(header)
    before = File.binread(@out)
    assert_usage_error ractorbench("run", "--resume", @out), message
    assert_equal before, File.binread(@out), "the file was changed"
  ensure
    rewrite(@header)
  end

  def rewrite(header) = File.write(@out, ([JSON.generate(header) + "\n"] + File.readlines(@out).drop(1)).join)

  # The header as a version before the recipe wrote it: every planned run listed.
  def listed(header)
    matrix = Ractorbench::Plan::Matrix.from_h(header["plan"])
    header.merge("plan" => {"seed" => matrix.seed, "runs" => matrix.runs.map(&:to_h)})
  end
end
