# frozen_string_literal: true

require "test_helper"

# A plan is checked before anything runs or is written: sizes far beyond
# the timeout (estimated from this machine's speed), parameters no workload
# takes or given twice, --resume with options that would plan something
# else, a --load file that exits.
class PlanChecksTest < Minitest::Test
  include CLIHelper
  include TempDir

  def setup
    super
    @out = File.join(@dir, "r.jsonl")
  end

  def test_absurd_sizes_are_refused_with_their_estimate
    {
      ["--suite", "basic-benchmarking", "--scale", "1e9"] => /prime W=\d+ M=\d+: one run would take about \d+ years \(\d+ jobs, estimated from this machine's speed\), far beyond --timeout 600s: lower --scale/,
      ["-w", "fib", "-m", "serial", "--param", "n=60"] => /fib \(n=60\) W=2 M=100: one run would take about .*far beyond --timeout 600s/,
      ["-w", "noop", "--reps", "100000000"] => /this plan has \d+ runs, over a day/,
      ["-w", "prime", "-m", "serial", "--messages", "1000000", "--reps", "5000", "--timeout", "3000"] => /this plan of 5000 runs would take about \d+ days/
    }.each do |args, message|
      assert_usage_error ractorbench("run", *args, "-o", @out), message
      refute File.exist?(@out)
    end
  end

  def test_parameters_no_workload_takes_or_given_twice
    assert_usage_error ractorbench("run", "-w", "fib,tarai", "--param", "nosuchkey=3", "-o", @out),
      /--param nosuchkey: no workload of this plan takes it \(fib takes n; tarai takes x, y, z\)/
    assert_usage_error ractorbench("run", "-w", "prime", "--param", "n=3", "-o", @out), /prime takes none/
    assert_usage_error ractorbench("run", "-w", "fib", "--param", "n=18", "--param", "n=20", "-o", @out),
      /--param n is given twice \(18 and 20\); give each parameter once/
    refute File.exist?(@out)
  end

  def test_resume_refuses_plan_options
    File.write(@out, File.read(File.join(FIXTURES, "results", "basic_benchmarking.jsonl")))
    before = File.read(@out)
    assert_usage_error ractorbench("run", "--resume", @out, "-w", "fib", "--reps", "3", "-o", "x.jsonl"),
      /--resume runs what .*r\.jsonl planned, so it takes no plan options \(got -w, --reps, -o\): drop them/
    assert_equal before, File.read(@out)
  end

  def test_a_load_file_that_exits_is_an_error
    assert_usage_error ractorbench("run", "--load", fixture("exits_on_load.rb"), "-o", @out),
      /exits_on_load\.rb called exit \(status 3\) while loading; a --load file must only define workloads or models/
  end
end
