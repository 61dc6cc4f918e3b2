# frozen_string_literal: true

require_relative "test_helper"
require "ractorbench/profile/records"
require "ractorbench/profile/choice"
require "ractorbench/profile/difference"
require "ractorbench/profile/totals"
require "ractorbench/profile/vernier"

# A profile line is read once into values (Profile::Record, its Summary,
# the Summary's top Functions and Interpreter) that the findings and every
# report part read by method; written back, a value is the line's JSON,
# key for key and in the same order, so `report --format json` gives the
# recorded profiles byte for byte.
class ProfileRecordsTest < Minitest::Test
  include CLIHelper

  RECORDED = Dir[File.join(ROOT, "docs", "results", "issue-26", "*.jsonl")].sort
  ALLOC = File.join(ROOT, "docs", "results", "issue-26", "alloc-1m.jsonl")

  def profile_lines(path) = File.readlines(path).select { |l| l.start_with?(Ractorbench::Profile::Records::START) }

  def test_a_profile_line_read_into_values_is_written_back_the_same
    lines = RECORDED.flat_map { |path| profile_lines(path) }
    assert_operator lines.size, :>=, 8, "the recorded collections hold profile lines"
    lines.each do |line|
      json = JSON.parse(line)
      record = Ractorbench::Profile::Record.from(json)
      assert_equal JSON.generate(json), JSON.generate(record.to_h)
      summary = record.profile
      assert_kind_of Ractorbench::Profile::Summary, summary
      assert_equal json.dig("profile", "seconds"), summary.seconds
      assert_equal json.dig("profile", "categories", "gc").to_f, summary.seconds_in("gc")
      assert_equal json.dig("profile", "top", 0, "function"), summary.top.first.function
      assert_equal json.dig("profile", "interpreter", "samples"), summary.interpreter&.samples
    end
  end

  # Each configuration's last line, as a Record whose configuration is a run's.
  def test_records_are_read_by_configuration
    records = Ractorbench::Profile::Records.read(ALLOC)
    assert_equal profile_lines(ALLOC).size, records.size
    records.each do |label, record|
      assert_equal label, record.configuration.label
      assert_equal "#{label}/profile", record.id
      assert record.ok?, record.reason
    end
  end

  # The profiles part of the JSON report: each profile line's configuration
  # and profile as recorded, whatever values they were read into.
  def test_the_json_report_gives_the_recorded_profiles
    result = ractorbench("report", ALLOC, "--format", "json")
    assert_equal 0, result.code, result.err
    reported = JSON.parse(result.out)["profiles"]
    recorded = profile_lines(ALLOC).map { |l| JSON.parse(l) }
    assert_equal recorded.size, reported.size
    recorded.each do |line|
      entry = reported.find { |p| p["configuration"] == line.slice(*Ractorbench::Profile::Record::CONFIGURATION) }
      refute_nil entry, "the report has #{line["id"]}"
      assert_equal JSON.generate(line["profile"]), JSON.generate(entry["profile"])
      assert_equal line.values_at("tool", "status", "file"), entry.values_at("tool", "status", "file")
    end
    ractors = reported.select { |p| p.dig("configuration", "model") == "ractors" }
    assert_equal 2, ractors.size
    assert(ractors.all? { |p| p.dig("vs_serial", "grown").any? }, "each ractors profile is set against serial's")

    text = ractorbench("report", ALLOC, "--format", "text").out
    assert_match(/^alloc \(iterations=1000000\) W=4 M=1 ruby-3\.4\.0: ractors against serial \(perf, core time\)$/, text)
    assert_match(/^  total +817 ms n=1632 +5\.92 s n=8565 +\+5\.10 s$/, text)
  end

  # Samples summed (Totals) into the Summary a record keeps, and its
  # difference from another's.
  def test_a_summary_is_what_the_totals_summed
    totals = gc_samples(3)
    summary = totals.summary
    assert_equal 0.003, summary.seconds
    assert_equal 3, summary.samples
    assert_equal 0.003, summary.seconds_in("gc")
    assert_equal 3, summary.samples_in("gc")
    assert_equal "gc_sweep_step", summary.top.first.function
    assert_equal "ruby", summary.interpreter.library
    assert_equal 3, summary.interpreter.samples
    assert_equal totals.to_h, Ractorbench::Profile::Summary.from(totals.to_h).to_h

    serial = gc_samples(1).summary
    difference = Ractorbench::Profile::Difference.new(summary, serial)
    assert_in_delta 0.002, difference.extra, 1e-9
    assert_equal "gc", difference.changes.first.category
  end

  # The header's --profile entry, as Stage#to_h writes it.
  def test_the_header_entry_reads_back
    entry = {"asked" => "auto", "tools" => {"ruby" => "perf", "mruby" => nil}, "notes" => ["a note"]}
    choice = Ractorbench::Profile::Choice.of({"profile" => entry})
    assert_equal "auto", choice.asked
    assert_equal ["a note"], choice.notes
    assert_equal JSON.generate(entry), JSON.generate(choice.to_h)
    assert_nil Ractorbench::Profile::Choice.of({"type" => "header"})
  end

  # vernier's profile (the Firefox profiler's processed format: a
  # thread's tables are columns) read by where the format keeps each
  # column: a sample's stack, frame, function and file; its thread state
  # (Idle: waiting); a GC pause marker over it; its weight.
  def test_a_vernier_profile_is_read_column_by_column
    own = File.join(Ractorbench::Profile::Vernier::WORKLOADS, "fib.rb")
    thread = {"stringArray" => ["Fib.work", own, "GC pause", "Integer#times", "<internal>"],
              "funcTable" => {"name" => [0, 3], "fileName" => [1, 4]}, "frameTable" => {"func" => [0, 1]},
              "stackTable" => {"frame" => [0, 1, 1], "category" => [0, 0, 1]},
              "samples" => {"stack" => [0, 0, 1, 2, nil], "time" => [1.0, 2.0, 3.0, 10.0, 11.0], "weight" => [1, 2, 1, 3, 1]},
              "markers" => {"name" => [2], "startTime" => [2.5], "endTime" => [3.5]}}
    json = {"meta" => {"interval" => 1.0, "categories" => [{"name" => "Ruby"}, {"name" => "Idle"}]}, "threads" => [thread]}
    summary = Ractorbench::Profile::Vernier.read(JSON.generate(json)).summary
    assert_equal 7, summary.samples
    assert_equal({"gc" => 1, "waiting" => 3, "work" => 3}, summary.category_samples)
    assert_in_delta 0.003, summary.seconds_in("work"), 1e-9
    assert_in_delta 0.001, summary.seconds_in("gc"), 1e-9
    assert_equal %w[Fib.work Integer#times], summary.top.map(&:function).uniq.sort
    assert_nil summary.interpreter, "vernier sees no interpreter library"
  end

  private

  # count samples of a millisecond each in the interpreter's gc_sweep_step.
  def gc_samples(count)
    Ractorbench::Profile::Totals.new.tap do |totals|
      count.times do
        totals.add("gc", "gc_sweep_step", 0.001)
        totals.interpreter_sample("ruby", named: true)
      end
    end
  end
end
