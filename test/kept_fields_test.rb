# frozen_string_literal: true

require_relative "test_helper"
require_relative "synthetic_results"

# What the store keeps of a run in memory comes from the field table: the
# fields the analysis reads (those it summarises, and those declared read);
# the others stay in the file and are read back from the run's line when a
# report shows the run whole. A field declared later (as a --load file
# declares one, or as a results header records one) is kept or left the
# same way, with no change to the store. From a pipe, whose lines cannot be
# read again, the runs a report shows whole are kept whole.
class KeptFieldsTest < Minitest::Test
  include TempDir

  Fields = Ractorbench::Harness::Fields

  # A value of each kind that the store's checks take.
  SAMPLES = {text: "x", printed_text: "x", count: 1, seconds: 0.5, amount: 3, status: "ok", boolean: false,
             params: {}, printed: "x", printed_lines: ["x"], string: "s", number: 1.5, list: [1, 2], object: {"a" => 1}}.freeze

  def line(rep, **more)
    run = Fields.all.to_h { |field| [field.name, SAMPLES.fetch(field.kind)] }
    run.merge("type" => "run", "id" => "prime/serial/w1/m1/ruby/rep#{rep}", "workload" => "prime", "model" => "serial",
      "workers" => 1, "messages" => 1, "ruby" => "ruby", "rep" => rep, "seq" => rep, **more)
  end

  def write(runs, **header)
    path = File.join(@dir, "r.jsonl")
    header = {"type" => "header", "tool" => "ractorbench", "version" => Ractorbench::VERSION, "command" => "t",
              "machine" => SyntheticResults::MACHINE, "rubies" => [{"name" => "ruby", "argv" => ["ruby"]}], **header}
    File.write(path, ([header] + runs).map { |r| JSON.generate(r) + "\n" }.join)
    path
  end

  def test_the_fields_kept_are_the_field_tables_read_ones
    in_own_process { fields_kept_are_the_read_ones }
  end

  # A report of a file whose --load file is not loaded knows its fields by
  # the header: a median figure recorded there is kept, and summarised.
  def test_a_figure_the_header_records_is_kept
    figure = {"name" => "kept_fields_header_figure", "kind" => "number", "writer" => "worker", "summary" => "median",
              "title" => "header figure", "columns" => ["csv"]}
    note = figure.merge("name" => "kept_fields_header_note", "summary" => "none", "title" => nil, "columns" => [])
    runs = [1, 2, 3].map { |rep| line(rep, figure["name"] => rep * 2.0, note["name"] => "n#{rep}") }
    contents = Ractorbench::Store.read(write(runs, "fields" => [figure, note]))
    columns = contents.runs.columns.first
    assert columns.kept.key?(figure["name"])
    refute columns.kept.key?(note["name"]), "a field the analysis does not read is left in the file"
    assert_equal [2.0, 4.0, 6.0], columns.values(figure["name"])
    assert_equal "n2", contents.runs[1][note["name"]], "read back from its line"
    assert_equal 4.0, Ractorbench::Analysis.new(contents).groups.first.cost(figure["name"])
  end

  # report /dev/stdin: a failed or disturbed run kept whole, as its line has
  # it; a run the report shows by its figures only, by what the analysis reads.
  def test_from_a_pipe_the_runs_shown_whole_are_kept_whole
    runs = [line(1), line(2, "status" => "failed", "reason" => "boom", "stderr_tail" => ["at x"]),
      line(3, "disturbed" => true, "others_cpu" => 0.5)]
    path = write(runs)
    fifo = File.join(@dir, "pipe")
    File.mkfifo(fifo)
    feeder = Thread.new { File.write(fifo, File.read(path)) }
    table = Ractorbench::Store.read(fifo).runs
    feeder.join
    assert_nil table[0]["started_at"], "an ok run: what the analysis reads, no more"
    assert_equal 0.5, table[0]["messages_time"]
    assert_equal runs[1], table[1].to_h
    assert_equal ["at x"], table[1]["stderr_tail"]
    assert_equal runs[2], table[2].to_h
    assert_equal "s", table[2]["started_at"]
  end

  private

  # A field declared stays in the table for the whole process (every other
  # test would meet it): the test runs in a fork, its failure reported here.
  def in_own_process
    reader, writer = IO.pipe
    pid = fork do
      reader.close
      yield
      exit!(0)
    rescue Exception => e # rubocop:disable Lint/RescueException -- an assertion is an Exception, and all must reach the parent
      writer.write("#{e.class}: #{e.message}\n#{e.backtrace.first(6).join("\n")}")
      exit!(1)
    end
    writer.close
    failure = reader.read
    Process.wait(pid)
    assert $?.success?, failure
  ensure
    reader&.close
  end

  def fields_kept_are_the_read_ones
    Fields.declare("kept_fields_test_figure", kind: :number, summary: :median, title: "test figure", columns: %i[csv])
    Fields.field("kept_fields_test_spread", :list, :worker, read: true)
    Fields.field("kept_fields_test_note", :string, :worker)
    read = Fields.all.select { |field| field.read || field.summary != :none }.map(&:name)
    assert_includes read, "kept_fields_test_figure", "a figure the analysis summarises is read"
    assert_includes read, "kept_fields_test_spread", "a field declared read is read"
    refute_includes read, "kept_fields_test_note"
    refute_includes read, "started_at", "the table leaves some fields in the file"

    runs = [1, 2].map { |rep| line(rep, "kept_fields_test_figure" => 10.0 + rep, "kept_fields_test_spread" => [rep, 0]) }
    path = write(runs)
    table = Ractorbench::Store.read(path).runs
    columns = table.columns.first
    table.each_with_index do |run, i|
      assert_equal read.sort, columns.stored(run.row).keys.sort, "every read field kept, no other"
      assert_equal runs[i], run.to_h, "the whole run, the fields not kept read back from its line"
    end
    assert_equal [[1, 0], [2, 0]], columns.values("kept_fields_test_spread")
    assert_equal [11.0, 12.0], columns.values("kept_fields_test_figure"), "the new figure kept as the analysis reads it"
    assert_equal 11.5, Ractorbench::Analysis.new(Ractorbench::Store.read(path)).groups.first.cost("kept_fields_test_figure")

    File.write(path, "") # the lines gone: what was kept still answers, what was left in the file does not
    assert_equal 12.0, table[1]["kept_fields_test_figure"]
    assert_nil table[1]["kept_fields_test_note"]
    assert_nil table[1]["started_at"]
    assert_nil table[1]["scope"]
    assert_equal "s", table[1]["digest"]
  end
end
