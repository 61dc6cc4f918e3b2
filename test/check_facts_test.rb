# frozen_string_literal: true

require_relative "test_helper"
require "json"
require "tmpdir"
require "ractorbench/advisor/try_findings"
require "ractorbench/advisor/preflight"
require "ractorbench/rubies/target"

# try's facts are values read by method, built once from the check's JSON.
# The check's records as a real check sends them keep every key in their
# values, and a record read back from a results file is the same value.
class CheckFactsTest < Minitest::Test
  include Ractorbench::Advisor

  # Files whose checks find, between them, every kind of fact: constants
  # and lasting state, code loaded on first use, a module's instance
  # variable, a result Marshal cannot write, a fiber probe of work that waits.
  CHECKED = ["examples/unsafe_cache.rb", "test/fixtures/try/library_use.rb", "test/fixtures/try/class_ivar.rb",
    "test/fixtures/try/returns_proc.rb", "examples/slow_service.rb"].freeze

  def test_every_key_a_real_check_sends_is_a_member
    CHECKED.each do |file|
      raw = check_record(File.join(ROOT, file))
      assert_equal "ok", raw["status"], file
      record = CheckRecord.from(raw)
      assert_equal deep_compact(raw), record.to_h, "#{file}: a key the check sent is no member of its facts"
      assert_equal record, CheckRecord.from(JSON.parse(JSON.generate(record.to_h))), "#{file}: read back from a header"
    end
  end

  # A check that stops: bad input, and the time limit met in threads side
  # by side (a lock taken twice), each key the stop record sends a member.
  def test_every_key_a_stopped_check_sends_is_a_member
    Dir.mktmpdir do |dir|
      hangs = File.join(dir, "hangs_in_threads.rb")
      File.write(hangs, "module HangsInThreads\n  @running = 0\n\n  def self.work(item)\n    @running += 1\n" \
        "    sleep(0.05)\n    sleep(600) if @running > 1\n    @running -= 1\n    item\n  end\nend\n")
      {File.join(FIXTURES, "try", "no_module.rb") => "bad_input", hangs => "timeout"}.each do |file, status|
        raw = check_record(file, timeout: 3, grace: [:USR1, Preflight::GRACE])
        assert_equal status, raw["status"], file
        assert_equal raw, CheckStop.from(raw).to_h, "#{file}: a key the stopped check sent is no member of CheckStop"
      end
    end
  end

  def test_the_values_are_read_by_method_with_their_kinds
    record = CheckRecord.from(JSON.parse(JSON.generate(sample)))
    assert_equal "Work", record.module_name
    problem = record.ractor_problems.first
    assert_instance_of ProblemFacts, problem
    assert_equal "Ractor::IsolationError", problem.error.class_name
    assert_equal "Hash", problem.constant.class_name
    assert_equal "make_shareable", problem.remedy, "a remedy's name stays a name"
    assert_equal ["Digest::SHA256"], record.ractor_problems.last.remedy.constants
    assert_equal false, record.fiber_probe.overlaps
    assert_equal ["CACHE.freeze"], record.ractor_fix.lines
    assert_equal "0 → 8", record.lasting_state.first.change
  end

  # As a Hash read by key did: a key no member names is left out, a missing
  # one is nil, and what is not a Hash at all is no facts.
  def test_unknown_missing_and_damaged_facts
    record = CheckRecord.from(sample.merge("written_by_a_later_version" => 1, "marshal" => "garbage"))
    refute record.to_h.key?("written_by_a_later_version")
    assert_nil record.threads_checked
    assert_equal "garbage", record.marshal, "a member of another kind that is not a Hash stays what it was"
    assert_nil CheckRecord.from(nil)
    assert_nil CheckRecord.from([1, 2])
    assert_equal [ProblemFacts.new(kind: "raised")], ProblemFacts.list([{"kind" => "raised"}, "garbage", nil])
  end

  def test_the_headers_findings_keep_their_order_and_keys
    findings = TryFindings.new(file: "/w/work.rb", file_digest: "d", module_name: "Work", items: 8,
      preflight: CheckRecord.from(sample), excluded: {}, patterns: {"threads" => "x"})
    written = JSON.parse(JSON.generate(findings.to_h))
    assert_equal %w[file file_digest module items preflight excluded patterns], written.keys
    assert_equal "Work", written.dig("preflight", "module")
    assert_equal "Hash", written.dig("preflight", "ractor_problems", 0, "constant", "class")
    assert_equal findings, TryFindings.from(written)
  end

  private

  def sample
    {"status" => "ok", "module" => "Work", "seconds_per_item" => 0.001, "cpu_share" => 0.2,
     "ractor_problems" => [
       {"stage" => "work", "kind" => "constant", "key" => "constant Work::CACHE", "remedy" => "make_shareable",
        "error" => {"class" => "Ractor::IsolationError", "message" => "can not access non-shareable objects in constant Work::CACHE"},
        "constant" => {"name" => "Work::CACHE", "class" => "Hash", "frozen" => false}},
       {"stage" => "work", "kind" => "lazy_load", "remedy" => {"kind" => "load", "constants" => ["Digest::SHA256"]}}
     ],
     "ractor_fix" => {"lines" => ["CACHE.freeze"], "verified" => true},
     "fiber_probe" => {"overlaps" => false, "ticks" => 0, "seconds" => 0.05},
     "lasting_state" => [{"kind" => "constant", "name" => "Work::CACHE", "change" => "0 → 8"}]}
  end

  # The check's final record as the child sent it.
  def check_record(file, timeout: 60, grace: nil)
    spec = {"file" => file, "sample" => Preflight::SAMPLE, "budget" => Preflight::BUDGET}
    launcher = Ractorbench::Measure::Launcher.new(Ractorbench::Rubies::Target.current, Preflight::SCRIPT, timeout: timeout, grace: grace)
    launched = launcher.call(spec)
    launched.records.reverse.find { |r| r.key?("status") }
  end

  def deep_compact(value)
    case value
    when Hash then value.filter_map { |k, v| [k, deep_compact(v)] unless v.nil? }.to_h
    when Array then value.map { |v| deep_compact(v) }
    else value
    end
  end
end
