# frozen_string_literal: true

require "test_helper"
require "hostile_helper"
require "ractorbench/measure/run_cgroup"

# Hostile corpus, round two, class 2 (issue 23): processes that outlive
# their run. Promise: nothing a run starts outlives it — not after the
# collection, not after its timeout, not after the collector itself was
# SIGKILLed — whatever it does to its session, environment or pipes; a run
# that left a process behind is failed ("escaped").
class RunTreeTest < Minitest::Test
  include CLIHelper
  include TempDir
  include HostileHelper

  def teardown
    FileUtils.rm_f(File.join(@dir, "hang"))
    super
  end

  # An orphan in a session of its own, its environment cleared and the
  # run's pipes closed used to be recorded `ok` and run on after the
  # collection.
  def test_an_orphan_that_leaves_everything_is_found_killed_and_the_run_failed
    result = hostile("h-escape-all,noop")
    assert_equal 1, result.code, result.err
    pid = noted_pid("escape-all.pid")
    run = run_of("h-escape-all")
    assert_equal %w[failed escaped], run.values_at("status", "failure"), run["reason"]
    assert_match(/left 1 process running outside its process group \(pid #{pid}\), killed/, run["reason"])
    assert dead?(pid), "the orphan #{pid} outlived its run"
    assert_equal "ok", run_of("noop")["status"]
    assert_plan_completes
  end

  def test_nothing_of_a_run_outlives_its_timeout
    FileUtils.touch(File.join(@dir, "hang"))
    result = hostile("h-hang-escape", "--timeout", "1")
    assert_equal 1, result.code, result.err
    assert_equal "timeout", run_of("h-hang-escape")["failure"]
    assert dead?(noted_pid("hang.pid")), "the hanging child outlived its timeout"
    assert dead?(noted_pid("hang-escape.pid")), "its orphan outlived the timeout"
  end

  # The collector SIGKILLed while a run hangs: the child used to live on
  # for ever. The watchdog kills it within moments, and with a cgroup per
  # run the orphan that left everything too.
  def test_the_run_in_flight_dies_with_a_sigkilled_collector
    FileUtils.touch(File.join(@dir, "hang"))
    collector = hostile_in_background("h-hang-escape", "--timeout", "600")
    wait_for { File.exist?(File.join(@dir, "hang.pid")) }
    child = noted_pid("hang.pid")
    orphan = noted_pid("hang-escape.pid")
    Process.kill(:KILL, collector)
    Process.wait(collector)
    collector = nil
    assert dead?(child, seconds: 5), "the child in flight outlived its SIGKILLed collector"
    if Ractorbench::Measure::RunCgroup.own_dir
      assert dead?(orphan, seconds: 5), "the run's orphan outlived its SIGKILLed collector"
    else
      Process.kill(:KILL, orphan)
      skip "no cgroup2 here: once the collector is dead, an orphan that left everything cannot be found"
    end
  ensure
    Process.kill(:KILL, collector) && Process.wait(collector) if collector
  end
end
