# frozen_string_literal: true

require "test_helper"
require "ractorbench/plan/matrix"

# Interleaving: every repetition is one block holding each arm (model x size
# x Ruby) once, shuffled with the recorded seed, so drift of the machine
# falls on every arm alike; the order is recorded (header plan, run seq)
# and --seed replays it. (collection_test.rb checks the replay end to end.)
class InterleavingTest < Minitest::Test
  include CLIHelper
  Plan = Ractorbench::Plan

  ENTRIES = [Plan::Entry.new(workload: "prime", models: %w[serial threads ractors processes], configs: [[1, 10], [2, 10]], params: {}),
    Plan::Entry.new(workload: "fib", models: %w[serial threads], configs: [[2, 1]], params: {})].freeze
  RUBIES = %w[base yjit].freeze

  def arms(runs) = runs.map { |r| r.id.sub(/rep\d+\z/, "") }

  def test_each_repetition_block_holds_every_arm_once_rubies_included
    plan = Plan::Matrix.build(entries: ENTRIES, rubies: RUBIES, reps: 5, seed: 99)
    size = (4 * 2 + 2) * 2 # arms: (models x sizes) per workload, times rubies
    assert_equal 5 * size, plan.runs.size
    blocks = plan.runs.each_slice(size).to_a
    blocks.each_with_index do |block, i|
      assert_equal [i + 1], block.map(&:rep).uniq, "repetition #{i + 1} is not one contiguous block"
      assert_equal arms(blocks.first).sort, arms(block).sort
      assert_equal arms(block).uniq, arms(block)
    end
    orders = blocks.map { |b| arms(b) }
    assert_operator orders.uniq.size, :>, 1, "every block in the same order: no shuffling"
    # Rubies alternate within blocks rather than running one after the other.
    refute(orders.all? { |o| o.first(size / 2).all? { |a| a.end_with?("/base/") } })
  end

  def test_the_seed_fixes_the_order_and_another_seed_changes_it
    a = Plan::Matrix.build(entries: ENTRIES, rubies: RUBIES, reps: 3, seed: 7).runs.map(&:id)
    b = Plan::Matrix.build(entries: ENTRIES, rubies: RUBIES, reps: 3, seed: 7).runs.map(&:id)
    c = Plan::Matrix.build(entries: ENTRIES, rubies: RUBIES, reps: 3, seed: 8).runs.map(&:id)
    assert_equal a, b
    refute_equal a, c
    assert_equal a, Plan::Matrix.from_h(JSON.parse(JSON.generate(Plan::Matrix.build(entries: ENTRIES, rubies: RUBIES, reps: 3, seed: 7).to_h))).runs.map(&:id)
  end

  def test_the_results_file_records_the_order_it_ran_in
    Dir.mktmpdir do |dir|
      out = File.join(dir, "r.jsonl")
      run = ractorbench("run", "-w", "noop", "-m", "serial,threads", "--workers", "1,2", "--messages", "1", "--reps", "3",
        "--ruby", "a=#{RbConfig.ruby}", "--ruby", "b=#{RbConfig.ruby}", "--seed", "5", "-o", out)
      assert_equal 0, run.code, run.err
      header, *runs = results_lines(out)
      planned = Ractorbench::Plan::Matrix.from_h(header["plan"]).runs.map(&:id)
      assert_equal planned, runs.sort_by { |r| r["seq"] }.map { |r| r["id"] }
      assert_equal (1..24).to_a, runs.map { |r| r["seq"] }
      assert_equal 5, header["plan"]["seed"]
      assert(runs.all? { |r| r["load_average_1m"].is_a?(Numeric) }, "each run records the load as it began")
    end
  end
end
