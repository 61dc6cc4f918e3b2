# frozen_string_literal: true

require_relative "test_helper"
require_relative "same_runs"
require_relative "../benchmarks/big_report/real_runs"

# The store's fast ways of reading (line templates, a fast path per shape of
# line, forked readers, a big header's plan left in the file) on lines shaped
# like a real collection's: the lines of a real `ractorbench run` multiplied
# as benchmarks/big_report.rb multiplies them, every field kept, numbers and
# worker job counts varying, runs failed among ok ones and disturbed. Whatever
# way a line goes, the runs read back are the runs its line holds.
class RealShapedReadingTest < Minitest::Test
  include TempDir
  include CLIHelper
  include SameRuns

  # One real collection for every test here: W=1,2, a workload that raises
  # and a model no Ruby supports beside ok runs.
  def self.collection
    @collection ||= begin
      dir = Dir.mktmpdir
      Minitest.after_run { FileUtils.rm_rf(dir) }
      path = File.join(dir, "real.jsonl")
      _, err, = Open3.capture3(RbConfig.ruby, EXE, "run", "-w", "prime,raiser", "-m", "serial,threads,processes,teleport",
        "--workers", "1,2", "--messages", "4", "--reps", "2", "--load", File.join(FIXTURES, "failing_workloads.rb"),
        "--load", File.join(FIXTURES, "unsupported_model.rb"), "-o", path)
      raise "the collection did not finish: #{err}" unless File.exist?(path)

      File.readlines(path)
    end
  end

  def real_shaped(runs)
    path = File.join(@dir, "big.jsonl")
    RealRuns.new(self.class.collection, runs: runs, configurations: 32, disturbed: 0.1, failed: 0.1, seed: 5).write(path)
    path
  end

  def test_real_shaped_lines_read_by_the_fast_ways_are_the_lines_parsed_one_by_one
    path = real_shaped(4000)
    run_lines = File.readlines(path).drop(1)
    runs = run_lines.map { |line| JSON.parse(line) }
    # The file has what real runs have, or this test shows nothing about them.
    statuses = runs.group_by { |r| r["id"].sub(/rep\d+\z/, "") }.transform_values { |rs| rs.map { |r| r["status"] }.uniq.sort }
    assert_includes statuses.values, %w[failed ok], "configurations with failed runs among ok ones"
    assert_includes statuses.values, %w[unsupported]
    assert_includes statuses.values, %w[failed]
    assert_operator runs.count { |r| r["disturbed"] }, :>, 100
    assert_operator runs.map { |r| r["worker_jobs"] }.uniq.size, :>, 10, "worker job counts vary"
    ok = runs.select { |r| r["status"] == "ok" }
    assert_operator ok.map { |r| r["messages_time"] }.uniq.size, :>, ok.size * 9 / 10, "times vary"

    expected, skipped = parsed_one_by_one(run_lines)
    assert_empty skipped
    [1, 2].each do |readers|
      contents = Ractorbench::Store.read(path, readers: readers)
      assert_same_runs expected.to_a, contents.runs.to_a
      assert_empty contents.skipped
      refute contents.truncated
      assert_equal readers, contents.readers
      # Most lines went by template: only a configuration's first line of
      # each shape, and lines after a change of shape that a fast path can no
      # longer take, are parsed.
      assert_operator contents.templated, :>=, run_lines.size * 9 / 10, "#{readers} readers"
    end
  end

  # A damaged line among real-shaped ones costs that line, whichever way
  # its neighbours went.
  def test_a_damaged_real_shaped_line_is_skipped_with_its_number
    path = real_shaped(1500)
    lines = File.readlines(path)
    timed = (700...lines.size).find { |i| lines[i].include?('"messages_time":') }
    spread = (900...lines.size).find { |i| lines[i].include?('"worker_jobs":[') }
    lines[timed] = lines[timed].sub(/"messages_time":[^,]*/, '"messages_time":-1.5')
    lines[spread] = lines[spread].sub('"worker_jobs":[', '"worker_jobs":[[')
    File.write(path, lines.join)
    expected, skipped = parsed_one_by_one(lines.drop(1))
    contents = Ractorbench::Store.read(path, readers: 1)
    assert_same_runs expected.to_a, contents.runs.to_a
    assert_equal skipped, contents.skipped.map(&:first)
    assert_includes skipped, timed + 1, "the negative time"
  end

  # `report` leaves a big header's list of planned runs in the file, each
  # piece of it still parsed: the rest of the header reads as it always
  # did, and a damaged list is a damaged header.
  def test_a_big_plan_is_checked_and_left_in_the_file
    path = real_shaped(12_000)
    header_line = File.open(path, &:gets)
    assert_operator header_line.bytesize, :>, Ractorbench::Store::HeaderPlan::INLINE
    whole = JSON.parse(header_line)
    assert_equal 12_000, Ractorbench::Store.read(path).header.dig("plan", "runs").size
    left = Ractorbench::Store.read(path, plan: false).header
    assert_equal whole.merge("plan" => whole["plan"].except("runs")), left

    # A run's params holding what a cut between runs looks like: parsed whole then.
    tricky = header_line.sub('"params":{}', '"params":{"note":"x},{y}]"}')
    refute_equal header_line, tricky
    File.write(path, tricky + File.readlines(path).drop(1).join)
    expected = JSON.parse(tricky)
    expected["plan"].delete("runs")
    assert_equal expected, Ractorbench::Store.read(path, plan: false).header

    damaged = header_line.sub(/("rep":\d+)\}/, '\1')
    refute_equal header_line, damaged
    File.write(path, damaged + File.readlines(path).drop(1).join)
    assert_usage_error ractorbench("report", path), /is not a ractorbench results file \(its first line is not a ractorbench header\)/
  end
end
