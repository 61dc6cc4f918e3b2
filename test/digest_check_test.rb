# frozen_string_literal: true

require_relative "test_helper"
require_relative "synthetic_results"

# Every model must compute what serial computes: runs whose digest differs
# from the reference are failures, found run by run whether a configuration's
# digests are all alike (read once) or mixed (read run by run).
class DigestCheckTest < Minitest::Test
  include TempDir
  include CLIHelper

  def analysis(changes)
    samples = %w[serial processes threads].to_h { |model| [["prime", model, 2, 10, "ruby"], [0.01] * 6] }
    samples.merge!(%w[processes threads].to_h { |model| [["tarai", model, 2, 10, "ruby"], [0.01] * 6] })
    path = SyntheticResults.write(File.join(@dir, "r.jsonl"), samples)
    lines = File.readlines(path).map do |line|
      record = JSON.parse(line)
      change = changes[record["id"]]
      change ? JSON.generate(record.merge(change)) + "\n" : line
    end
    File.write(path, lines.join)
    contents = Ractorbench::Store.read(path)
    assert_empty Ractorbench::Store.warnings(contents), "every changed line is read"
    Ractorbench::Analysis.new(contents)
  end

  def group(analysis, workload, model) = analysis.groups.find { |g| g.workload == workload && g.model == model }

  def test_runs_that_computed_something_else_are_found_run_by_run
    changes = {"prime/processes/w2/m10/ruby/rep2" => {"digest" => "wrong"}, "prime/processes/w2/m10/ruby/rep5" => {"digest" => "wrong"},
               "prime/processes/w2/m10/ruby/rep3" => {"digest" => "other", "status" => "failed", "reason" => "boom"}}
    (1..6).each { |rep| changes["prime/threads/w2/m10/ruby/rep#{rep}"] = {"digest" => "threads-wrong"} }
    analysis = analysis(changes)
    check = analysis.digest_check
    refute check.agree?
    assert_equal "same-work", check.consensus[["prime", 20, ""]], "serial's digest is the reference"
    processes = group(analysis, "prime", "processes")
    assert_equal({1 => true, 4 => true}, check.wrong_rows(processes.columns), "reps 2 and 5; rep 3 failed on its own")
    assert_equal (0..5).to_h { |row| [row, true] }, check.wrong_rows(group(analysis, "prime", "threads").columns)
    assert_empty check.wrong_rows(group(analysis, "prime", "serial").columns)
    wrong = check.disagreements.flat_map(&:runs).map { |r| r["id"] }
    assert_equal %w[rep2 rep5], wrong.grep(%r{/processes/}).map { |id| id.split("/").last }
    assert_equal 6, wrong.grep(%r{/threads/}).size
    assert_equal 3, processes.ok_count, "the wrong runs and the failed one leave the statistics"
  end

  def test_without_serial_the_most_common_digest_is_the_reference
    changes = {"tarai/processes/w2/m10/ruby/rep1" => {"digest" => "b"}, "tarai/processes/w2/m10/ruby/rep2" => {"digest" => "b"}}
    (1..6).each { |rep| changes["tarai/threads/w2/m10/ruby/rep#{rep}"] = {"digest" => (rep <= 3) ? "b" : "same-work"} }
    check = analysis(changes).digest_check
    # "b": 2 + 3 runs, "same-work": 4 + 3.
    assert_equal "same-work", check.consensus[["tarai", 20, ""]]
    assert_equal 5, check.disagreements.find { |d| d.key == ["tarai", 20, ""] }.runs.size
  end

  def test_a_tie_goes_to_the_digest_that_came_first
    changes = (1..6).to_h { |rep| ["tarai/threads/w2/m10/ruby/rep#{rep}", {"digest" => "c"}] }
    check = analysis(changes).digest_check
    first = Ractorbench::Store.read(File.join(@dir, "r.jsonl")).runs.find { |r| r["workload"] == "tarai" }["digest"]
    assert_equal first, check.consensus[["tarai", 20, ""]], "6 runs each: the first run's digest"
  end

  # A model that computes the wrong thing does so in every run: the text
  # lists the first Verdict::LISTED by id and counts the rest; the JSON
  # report lists every one.
  def test_a_long_list_of_wrong_runs_is_cut_in_text_and_whole_in_json
    samples = %w[serial threads].to_h { |model| [["prime", model, 2, 10, "ruby"], [0.01] * 30] }
    path = SyntheticResults.write(File.join(@dir, "many.jsonl"), samples)
    File.write(path, File.readlines(path).map { |line| line.include?("/threads/") ? line.sub('"same-work"', '"wrong"') : line }.join)
    text = ractorbench("report", path, "--format", "text")
    assert_equal 1, text.code
    wrong = text.out.lines.grep(/^  WRONG prime/)
    assert_equal Ractorbench::Reports::Parts::Verdict::LISTED, wrong.size
    assert_includes text.out, "  WRONG: 10 more runs with another digest (--format json lists every one)"
    json = JSON.parse(ractorbench("report", path, "--format", "json").out)
    assert_equal 30, json.dig("disagreements", 0, "runs").size
  end
end
