# frozen_string_literal: true

require "test_helper"
require "timeout"
require_relative "pids_cgroup"

# Hostile corpus, round two, class 1 (issue 23): a command line that would
# take the machine down. Promise: no input makes ractorbench start more
# threads, ractors or processes at once than the machine can spare; every
# count is checked before anything starts, with one line naming the largest
# value this machine takes. Driven inside a pids cgroup of 200 tasks: the
# biggest values are refused, a value that fits runs, and the cgroup never
# refused a single task (pids.events), so nothing ran into its limit.
class BoundedCountsTest < Minitest::Test
  include CLIHelper
  include TempDir

  LIMIT = 200
  SPARE = /more than this machine can spare \(\d+ tasks: half the room left under the pids cgroup's pids\.max/

  def setup
    super
    skip "no pids cgroup can be made here (run as root on Linux)" unless PidsCgroup.root
    @cgroup = PidsCgroup.new(LIMIT)
    @out = File.join(@dir, "r.jsonl")
  end

  def teardown
    @cgroup&.remove
    super
  end

  # Promise: --workers is bounded by the machine, per model family.
  def test_workers_beyond_the_machine_are_refused_before_anything_starts
    {
      %w[-m threads --workers 100000] => /a run of noop under threads at W=100000 starts about 100000 threads at once, #{SPARE}.*; lower --workers: the most this machine takes is W=\d+$/o,
      %w[-m ractors --workers 2,5000] => /under ractors at W=5000 starts about 5000 ractors at once/,
      %w[-m processes --workers 60] => /under processes at W=60 starts about 180 tasks \(60 processes\) at once/
    }.each do |args, message|
      assert_usage_error caged("run", "-w", "noop", *args, "-o", @out), message
      refute File.exist?(@out), "nothing is written"
    end
    assert_equal 0, @cgroup.refused, "the pids limit was reached"
  end

  # Promise: --max-cpu never becomes 2N+8 waiting ractors beyond the machine
  # (the M:N probe): 99999 used to start 200,006 native threads.
  def test_max_cpu_beyond_the_machine_is_refused_before_the_probe
    result = caged("run", "-w", "noop", "-m", "serial", "--max-cpu", "99999", "-o", @out)
    assert_usage_error result, /--max-cpu 99999: checking that RUBY_MAX_CPU=99999 takes effect starts 200006 waiting ractors at once, #{SPARE}.*; the largest --max-cpu it can check is \d+$/o
    assert_equal 0, @cgroup.refused
  end

  # Promise: a workload's own units (a ring's nodes) count as workers do.
  def test_a_workloads_own_units_are_bounded_too
    assert_usage_error caged("run", "-w", "ring", "-m", "threads", "--param", "nodes=1000000", "-o", @out),
      /a run of ring \(nodes=1000000\) under threads at W=2 \(1000000 units\) starts about 1000000 threads at once, .*lower the workload's parameters/
    assert_equal 0, @cgroup.refused
  end

  # Promise: the probe caps its own size, however it is started.
  def test_the_mn_probe_caps_its_own_size
    reader, writer = IO.pipe
    pid = Process.spawn({"RUBY_MAX_CPU" => "99999"}, *@cgroup.command(RbConfig.ruby, File.join(ROOT, "harness", "probe.rb")),
      3 => writer, :in => File::NULL, :out => File::NULL, :err => File::NULL)
    writer.close
    data = Timeout.timeout(120) { reader.read }
    Process.wait(pid)
    record = Marshal.load(data) # rubocop:disable Security/MarshalLoad -- our own probe's
    ractors = record.dig("features", "mn", "ractors")
    assert_nil ractors["active"]
    assert_match(/checking needs 200006 waiting units at once, more than this machine can spare/, ractors["why"])
    assert_equal 0, @cgroup.refused
  ensure
    reader&.close
  end

  # Promise: try's sizes are checked as run's: --items whose run would last
  # far beyond the timeout (an estimate of 8×10^14 minutes used to run
  # anyway), --workers beyond the machine, and an empty model list.
  def test_try_sizes_are_checked_before_the_sweep
    assert_usage_error caged("try", "--example", "json_parse", "--items", "100000000000000000", "-o", @out),
      /--items 100000000000000\d\d\d: one run would take about .* years \(.* items at .* each, as the check timed them\), far beyond --timeout 60s: lower --items \(the most a run here takes is \d+\)/
    assert_usage_error caged("try", "--example", "json_parse", "--workers", "100000", "-o", @out),
      /a run of JsonParse.work under (threads|ractors|processes)[\w-]* at W=100000 starts about \d+ \w+.* at once, #{SPARE}/o
    assert_usage_error caged("try", "--example", "json_parse", "-m", ",,", "-o", @out),
      /--models needs a comma-separated list of names, got ",,"/
    refute File.exist?(@out)
    assert_equal 0, @cgroup.refused
  end

  # Promise: what fits still runs, under the same limit.
  def test_a_plan_that_fits_runs_inside_the_limit
    result = caged("run", "-w", "noop", "-m", "serial,threads", "--workers", "2", "--messages", "1", "--reps", "1", "-o", @out)
    assert_equal 0, result.code, result.err
    assert_equal 2, runs_in(@out).count { |r| r["status"] == "ok" }
    assert_equal 0, @cgroup.refused
  end

  private

  def caged(*args)
    out, err, status = Timeout.timeout(240) { Open3.capture3(*@cgroup.command(RbConfig.ruby, EXE, *args)) }
    CLIHelper::Result.new(out, err, status)
  end
end
