# frozen_string_literal: true

require_relative "test_helper"
require_relative "same_runs"
require_relative "../benchmarks/big_report/real_runs"

# The store on lines shaped like a real collection's: the lines of a real
# `ractorbench run` multiplied as benchmarks/big_report.rb multiplies them,
# numbers and worker job counts varying, runs failed among ok ones and
# disturbed. The runs read back are the runs their lines hold.
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

  def test_real_shaped_lines_read_back_as_their_lines_hold_them
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
    contents = Ractorbench::Store.read(path)
    assert_same_runs expected, contents.runs
    assert_empty contents.skipped
    refute contents.truncated
  end

  # A damaged line among real-shaped ones costs that line.
  def test_a_damaged_real_shaped_line_is_skipped_with_its_number
    path = real_shaped(1500)
    lines = File.readlines(path)
    timed = (700...lines.size).find { |i| lines[i].include?('"messages_time":') }
    spread = (900...lines.size).find { |i| lines[i].include?('"worker_jobs":[') }
    lines[timed] = lines[timed].sub(/"messages_time":[^,]*/, '"messages_time":-1.5')
    lines[spread] = lines[spread].sub('"worker_jobs":[', '"worker_jobs":[[')
    File.write(path, lines.join)
    expected, skipped = parsed_one_by_one(lines.drop(1))
    contents = Ractorbench::Store.read(path)
    assert_same_runs expected, contents.runs
    assert_equal skipped, contents.skipped.map(&:first)
    assert_includes skipped, timed + 1, "the negative time"
  end
end
