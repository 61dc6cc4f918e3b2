# frozen_string_literal: true

require_relative "test_helper"

# A results file's header is read once, checked, into a value that the
# analysis and the reports read by method: its machine, its Rubies and each
# Ruby's probe. The JSON it was read from is kept as it was, so what merge
# and `report --format json` write from it is what the file holds.
class ResultsHeaderTest < Minitest::Test
  include TempDir

  TWO_RUBIES = File.join(FIXTURES, "results", "two_rubies.jsonl")

  def first_line = File.open(TWO_RUBIES, &:gets)

  def test_a_files_header_is_read_by_method
    header = Ractorbench::Store.read(TWO_RUBIES).header
    json = JSON.parse(first_line)
    assert_equal [json["command"], json["seed"], json["created_at"]], [header.command, header.seed, header.created_at]
    assert_equal [2, 2, "vm"], [header.machine.cores, header.machine.usable_cores, header.machine.hostname]
    assert_equal %w[ruby31 ruby40], header.rubies.map(&:name)
    assert_equal ["3.1.2", "4.0.0"], header.rubies.map { |r| r.info.version }
    assert_equal [false, true], header.rubies.map { |r| r.info.features.ractor_port }
    assert_equal ["/opt/rubies/ruby-4.0.0/bin/ruby"], header.ruby("ruby40").argv
    assert_nil header.ruby("ruby33")
    refute header.merged?
  end

  def test_the_json_it_was_read_from_is_kept_whole_and_in_order
    header = Ractorbench::Store.read(TWO_RUBIES).header
    json = JSON.parse(first_line)
    assert_equal json, header.as_json
    assert_equal json.keys, header.as_json.keys
    assert_equal json["machine"].keys, header.machine.as_json.keys
    assert_equal json["rubies"], header.rubies.map(&:as_json)
  end

  # A header without a machine, a Ruby never probed, a probe that failed:
  # each reads as empty, as a report finds it, never as an error.
  def test_what_a_header_lacks_reads_as_empty
    header = Ractorbench::Store::Header.new({"type" => "header", "rubies" => [{"name" => "r"}]})
    assert_nil header.machine.cores
    assert_nil header.machine.as_json
    probe = header.ruby("r").info
    assert_nil probe.description
    refute probe.ractor_scaling.measured?
    assert_nil probe.features.mn_check("threads").active
    assert_equal [], Ractorbench::Store::Header.new({"rubies" => "damaged"}).rubies
  end

  # null where a list or an object belongs is none of them, as the check
  # reads it too.
  def test_a_header_with_null_rubies_and_machine_is_read
    path = File.join(@dir, "r.jsonl")
    File.write(path, JSON.generate("type" => "header", "tool" => "ractorbench", "rubies" => nil, "machine" => nil) + "\n")
    header = Ractorbench::Store.read(path).header
    assert_equal [], header.rubies
    assert_nil header.machine.usable_cores
  end

  def test_a_failed_scaling_probe_has_its_reason_and_no_figures
    probe = Ractorbench::Rubies::Probe.new({"ractor_scaling" => {"reason" => "this Ruby has no Ractor"}})
    refute probe.ractor_scaling.measured?
    assert_equal "this Ruby has no Ractor", probe.ractor_scaling.reason
  end

  # A machine is told apart by its description less its load.
  def test_a_machines_identity_leaves_out_its_load
    machine = ->(load) { Ractorbench::Store::Header.new({"machine" => {"cores" => 4, "load_average" => [load]}}).machine }
    assert_equal machine.call(0.1).identity, machine.call(3.0).identity
    refute_equal machine.call(0.1).identity, Ractorbench::Store::Header.new({"machine" => {"cores" => 8}}).machine.identity
  end
end
