# frozen_string_literal: true

require_relative "test_helper"
require_relative "synthetic_results"

# What the store keeps of a run in memory comes from the field table: every
# field but those it marks unread, which stay in the file and are read back
# from the run's line when a report shows the run whole. A field declared
# later (as a --load file declares one) is kept or left the same way, with
# no change to the store.
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

  def write(runs)
    path = File.join(@dir, "r.jsonl")
    header = {"type" => "header", "tool" => "ractorbench", "version" => Ractorbench::VERSION, "command" => "t",
              "machine" => SyntheticResults::MACHINE, "rubies" => [{"name" => "ruby", "argv" => ["ruby"]}]}
    File.write(path, ([header] + runs).map { |r| JSON.generate(r) + "\n" }.join)
    path
  end

  def test_the_fields_kept_are_the_field_tables_read_ones
    in_own_process { fields_kept_are_the_read_ones }
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
    Fields.field("kept_fields_test_note", :string, :worker, unread: true)
    unread = Fields.unread.map(&:name)
    assert_includes unread, "started_at", "the table marks some fields unread"
    assert_includes unread, "kept_fields_test_note"

    runs = [1, 2].map { |rep| line(rep, "kept_fields_test_figure" => 10.0 + rep) }
    path = write(runs)
    table = Ractorbench::Store.read(path).runs
    columns = table.columns.first
    table.each_with_index do |run, i|
      assert_equal (Fields.names - unread).sort, columns.stored(run.row).keys.sort, "every read field kept, no unread one"
      assert_equal runs[i], run.to_h, "the whole run, its unread fields read back from its line"
    end
    assert_equal [11.0, 12.0], columns.values("kept_fields_test_figure"), "the new figure kept as the analysis reads it"
    assert_equal 11.5, Ractorbench::Analysis.new(Ractorbench::Store.read(path)).groups.first.cost("kept_fields_test_figure")

    File.write(path, "") # the lines gone: what was kept still answers, what was left in the file does not
    assert_equal 12.0, table[1]["kept_fields_test_figure"]
    assert_nil table[1]["kept_fields_test_note"]
    assert_nil table[1]["started_at"]
    assert_equal "s", table[1]["scope"]
  end
end
