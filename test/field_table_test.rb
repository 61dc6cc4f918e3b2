# frozen_string_literal: true

require_relative "test_helper"
require "csv"
require "ractorbench/reports/csv"
require "ractorbench/reports/text"
require "ractorbench/analysis/row"
require "ractorbench/measure/run_builder"
require "ractorbench/plan/run_spec"

# The field table (harness/ractorbench/harness/fields.rb) is the only list of
# a run record's fields: the store's checks, the analysis's medians, the row,
# the CSV and the text report's cost columns are read off it; a name it lacks,
# or one another writer owns, is an error where it is written; and a figure a
# --load file declares reaches the CSV and JSON reports with no other change.
class FieldTableTest < Minitest::Test
  include TempDir
  include CLIHelper

  Fields = Ractorbench::Harness::Fields
  Store = Ractorbench::Store

  def test_the_store_checks_exactly_the_checked_fields_of_the_table
    checked = Fields.all.select(&:checked?).to_h { |f| [f.name, f.kind] }
    assert_equal checked, Store::RunRecord::KINDS.slice(*Fields.names)
    assert_empty Store::RunRecord::KINDS.keys - Fields.names
    assert_equal Fields.all.select(&:required).map(&:name), Store::RunRecord::REQUIRED
    assert_equal %w[id workload model ruby workers messages rep status], Store::RunRecord::REQUIRED
  end

  def test_the_row_the_csv_and_the_text_costs_take_their_figures_from_the_table
    medians = Fields.medians.map(&:name)
    members = Ractorbench::Analysis::Row.members.map(&:to_s)
    assert_empty medians - members, "every median figure is a row member"
    assert_equal medians, Ractorbench::Analysis::Group::COSTS
    headers = CSV.parse_line(Ractorbench::Reports::Csv.render(analysis_of(fixture("results/basic_benchmarking.jsonl"))))
    csv = Fields.shown_in(:csv).map(&:name)
    assert_empty csv - headers, "every figure the table gives a CSV column has one"
    costs = (Fields.medians - Fields.shown_in(:csv)).map(&:name) & headers
    assert_empty costs, "no median figure has a CSV column the table does not give it"
    # The seven figures of /proc and GC, in the columns reports have always had.
    assert_equal %w[minor_faults major_faults voluntary_switches involuntary_switches allocated_objects gc_count gc_time_ms],
      Fields.shown_in(:text).map(&:name)
    assert_equal ["minor faults", "major faults", "voluntary sw", "involuntary sw", "objects", "GC runs", "GC ms"],
      Fields.shown_in(:text).map(&:title)
  end

  def test_a_run_reads_every_field_by_a_method_made_from_the_table
    run = Store::RunRecord.parse(runs_in(fixture("results/basic_benchmarking.jsonl")).first)
    Fields.names.each { |name| assert_same run[name], run.public_send(name), name }
    view = Store.read(fixture("results/basic_benchmarking.jsonl")).runs.first
    assert_same view["messages_time"], view.messages_time
    assert_same view["minor_faults"], view.minor_faults
  end

  def test_a_real_collection_writes_only_fields_of_the_table
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", "prime,ring", "-m", "serial,threads,processes", "--workers", "2", "--messages", "4",
      "--reps", "1", "-o", out)
    assert_equal 0, result.code, result.err
    runs = runs_in(out)
    assert_equal 6, runs.size
    assert_empty runs.flat_map(&:keys).uniq - Fields.names
    processes = runs.find { |r| r["workload"] == "prime" && r["model"] == "processes" }
    assert_equal 2, processes["workers_reported"], "the model's own count, once dropped under the plan's workers"
    ring = runs.find { |r| r["workload"] == "ring" && r["model"] == "threads" }
    assert_operator ring["build_time"], :<, ring["setup_time"], "the ring's building is part of the child's set-up, now both kept"
  end

  def test_a_record_refuses_an_unknown_name_and_a_second_writer
    record = Fields::Record.new(:worker, "model m")
    error = assert_raises(Fields::UnknownField) { record["widgits"] = 1 }
    assert_match(/"widgits" \(written by model m\) is no field/, error.message)
    error = assert_raises(Fields::Clash) { record["workers"] = 2 }
    assert_match(/workers is written by the plan, not by model m/, error.message)
    record["worker_jobs"] = [1]
    record["worker_jobs"] = [2] # the same writer again: a model run twice in one process
    error = assert_raises(Fields::Clash) { record.write("worker_jobs", [3], :worker, "workload w") }
    assert_match(/worker_jobs was written by model m and again by workload w/, error.message)
    error = assert_raises(Fields::Clash) { Fields.declare("messages_time", kind: :amount) }
    assert_match(/field messages_time is declared already/, error.message)
  end

  def test_a_model_writing_a_bad_name_fails_its_run_naming_the_field
    runs = collected("misnamed_figures.rb", "prime", "serial,typo-figure,plan-clash", exit: 1).to_h { |r| [r["model"], r] }
    assert_equal "ok", runs["serial"]["status"]
    typo = runs["typo-figure"]
    assert_equal %w[failed exception], typo.values_at("status", "failure")
    assert_match(/UnknownField: "widgits" \(written by model typo-figure\) is no field of a run record/, typo["reason"])
    clash = runs["plan-clash"]
    assert_equal %w[failed exception], clash.values_at("status", "failure")
    assert_match(/Clash: workers is written by the plan, not by model plan-clash/, clash["reason"])
    assert_equal 1, clash["workers"], "the plan's workers stand"
  end

  def test_a_child_record_past_the_table_is_a_failed_run_naming_the_field
    run = collected("misnamed_figures.rb", "bypass-record", "serial", exit: 1).first
    assert_equal %w[failed garbage], run.values_at("status", "failure")
    assert_equal "garbage on the result channel (fd 3): workers is written by the plan, not by the child: give the child's " \
      "figure a field of its own", run["reason"]
    assert_equal 1, run["workers"], "the plan's workers stand"
    assert_nil run["messages_time"], "nothing of a record that breaks the table is kept"
  end

  def test_one_builder_makes_every_line_the_driver_writes_without_a_result
    spec = Ractorbench::Plan::RunSpec.new(workload: "prime", model: "serial", workers: 2, messages: 3, params: {}, ruby: "ruby", rep: 1)
    line = Ractorbench::Measure::RunBuilder.new(spec, seq: 4, started_at: "t").failed("collector_died", "why")
    assert_equal %w[type id seq started_at workload model workers messages params ruby rep status failure reason], line.keys
    assert_equal ["prime/serial/w2/m3/ruby/rep1", 4, "failed"], line.values_at("id", "seq", "status")
    assert Store::RunRecord.parse(line)
  end

  def test_a_figure_a_load_file_declares_reaches_the_csv_and_the_json_report
    collected("widget_figure.rb", "prime", "serial,widgets", workers: 2, messages: 5, reps: 2)
    out = @out
    header = results_lines(out).first
    assert_equal [{"name" => "fixture_widgets", "kind" => "amount", "writer" => "worker", "summary" => "median",
                   "title" => "widgets", "unit" => "widgets", "columns" => ["csv"]}], header["fields"]
    assert_equal [30, 30], runs_in(out).select { |r| r["model"] == "widgets" }.map { |r| r["fixture_widgets"] }

    csv = CSV.parse(ractorbench("report", out, "--format", "csv").out, headers: true)
    assert_equal "fixture_widgets", csv.headers.last
    widgets = csv.find { |row| row["model"] == "widgets" }
    assert_equal 30, Float(widgets["fixture_widgets"]), "the median of the widgets' runs"
    assert_nil csv.find { |row| row["model"] == "serial" }["fixture_widgets"]

    json = JSON.parse(ractorbench("report", out, "--format", "json").out)
    rows = json["configurations"].to_h { |r| [r["model"], r] }
    assert_equal 30, rows["widgets"]["fixture_widgets"], "the median of the widgets' runs"
    assert_nil rows["serial"]["fixture_widgets"]
    assert_equal "fixture_widgets", rows["widgets"].keys.last
  end

  private

  # The runs of a real collection with a fixture --load-ed, its exit status checked.
  def collected(file, workloads, models, workers: 1, messages: 1, reps: 1, exit: 0)
    @out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", workloads, "-m", models, "--workers", workers, "--messages", messages, "--reps", reps,
      "--load", fixture(file), "-o", @out)
    assert_equal exit, result.code, result.err
    runs_in(@out)
  end

  def analysis_of(path) = Ractorbench::Analysis.new(Store.read(path))
end
