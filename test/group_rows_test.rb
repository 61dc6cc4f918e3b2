# frozen_string_literal: true

require_relative "test_helper"
require_relative "synthetic_results"

# A configuration's runs sorted into succeeded, failed, unsupported, wrong
# and disturbed (Analysis::Group) are found by their exceptions, not a pass
# a run: whatever the mix, each list is what its definition, run by run,
# makes of the lines, in file order.
class GroupRowsTest < Minitest::Test
  include TempDir

  def run_line(rep, rng)
    status = %w[ok ok ok ok failed unsupported].sample(random: rng)
    run = {"type" => "run", "id" => "prime/threads/w2/m4/ruby/rep#{rep}", "workload" => "prime", "model" => "threads",
           "workers" => 2, "messages" => 4, "params" => {}, "ruby" => "ruby", "rep" => rep, "status" => status}
    run["disturbed"] = [true, false, false].sample(random: rng) unless rng.rand < 0.2
    return run.merge("reason" => "boom") unless status == "ok"

    run.merge("messages_time" => 0.1 + rng.rand, "whole_time" => 1.0, "digest" => (rng.rand < 0.15) ? "odd" : "d1")
  end

  def header
    {"type" => "header", "tool" => "ractorbench", "version" => Ractorbench::VERSION, "command" => "t",
     "created_at" => "2026-01-01T00:00:00Z", "seed" => 1, "machine" => SyntheticResults::MACHINE,
     "rubies" => [SyntheticResults.ruby("ruby", false)], "load" => [], "plan" => {"seed" => 1, "runs" => []}}
  end

  def serial_line(rep)
    {"type" => "run", "id" => "prime/serial/w2/m4/ruby/rep#{rep}", "workload" => "prime", "model" => "serial",
     "workers" => 2, "messages" => 4, "params" => {}, "ruby" => "ruby", "rep" => rep, "status" => "ok",
     "messages_time" => 0.5, "whole_time" => 1.0, "digest" => "d1"}
  end

  def test_each_list_is_its_definition_run_by_run
    20.times do |seed|
      rng = Random.new(seed)
      runs = (1..rng.rand(1..40)).map { |rep| run_line(rep, rng) }
      lines = [header] + runs + (1..3).map { |rep| serial_line(rep) }
      path = File.join(@dir, "r#{seed}.jsonl")
      File.write(path, lines.map { |line| JSON.generate(line) + "\n" }.join)
      analysis = Ractorbench::Analysis.new(Ractorbench::Store.read(path), first_run: "include")
      group = analysis.groups.find { |g| g.configuration.model == "threads" }
      wrong = runs.each_index.select { |i| runs[i]["status"] == "ok" && runs[i]["digest"] == "odd" }
      where = ->(&pick) { runs.each_index.select { |i| pick.call(runs[i], i) }.map { |i| "rep#{i + 1}" } }
      ids = ->(views) { views.map { |run| run["id"][/rep\d+\z/] } }
      succeeded = ->(run, i) { run["status"] == "ok" && !wrong.include?(i) }
      disturbed = where.call { |run, i| succeeded.call(run, i) && run["disturbed"] == true }
      undisturbed = where.call { |run, i| succeeded.call(run, i) && run["disturbed"] != true }

      assert_equal where.call { |run, i| run["status"] == "failed" || wrong.include?(i) }, ids.call(group.failed_runs), "seed #{seed}"
      assert_equal where.call { |run, _| run["status"] == "failed" }, ids.call(group.crashed_runs), "seed #{seed}"
      assert_equal where.call { |run, _| run["disturbed"] == true }, ids.call(group.runs_disturbed), "seed #{seed}"
      assert_equal runs.count { |run| run["status"] == "unsupported" }, group.unsupported_count, "seed #{seed}"
      assert_equal where.call(&succeeded).size, group.succeeded_count, "seed #{seed}"
      assert_equal undisturbed.empty? ? disturbed : undisturbed, ids.call(group.ok_runs), "seed #{seed}"
      assert_equal disturbed, ids.call(group.disturbed_runs), "seed #{seed}"
    end
  end
end
