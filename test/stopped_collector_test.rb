# frozen_string_literal: true

require_relative "test_helper"
require_relative "hostile_helper"

# Time the collector spends stopped while a run is in flight (SIGSTOP to
# its process group, Ctrl-Z until `fg`): the run's child has a group of its
# own and runs on, so the stop is neither its time nor its timeout. The run
# is marked disturbed with how long the collector was stopped, never
# failed for the stop, never ok with the stop inside its time.
class StoppedCollectorTest < Minitest::Test
  include CLIHelper
  include TempDir
  include HostileHelper

  TIMEOUT = 2
  STOP = 4 # longer than the timeout: a stop counted as run time would time the run out

  def setup
    super
    FileUtils.touch(flag)
  end

  def teardown
    Process.kill(:CONT, -@pid) if @pid
    Process.kill(:KILL, -@pid) if @pid
    Process.wait(@pid) if @pid
  rescue Errno::ESRCH, Errno::ECHILD
    nil
  ensure
    super
  end

  # The run ends while its collector is stopped: ok, not a timeout, the stop
  # out of its whole time, marked disturbed, said at once, and reported as
  # ractorbench's own stop (not "the machine was busy").
  def test_a_stop_of_the_group_longer_than_the_timeout_is_neither_run_time_nor_a_timeout
    %w[STOP TSTP].each do |signal|
      out = File.join(@dir, "#{signal}.jsonl")
      err = File.join(@dir, "#{signal}.err")
      status = stopped_while_in_flight(signal, out, err) { File.delete(flag) }
      assert_equal 0, status.exitstatus, File.read(err)
      run = run_of("h-hang", out)
      assert_equal "ok", run["status"], "#{signal}: #{run["reason"]}"
      assert_operator run["collector_stopped"], :>=, STOP - 1, signal
      assert_equal true, run["disturbed"], signal
      assert_operator run["whole_time"], :<, run["collector_stopped"], "#{signal}: the stop is not in the run's time"
      assert_match(/DISTURBED h-hang\S*: ractorbench was stopped for \d+\.\ds while it ran/, File.read(err))
      report = ractorbench("report", out)
      assert_match(/disturbed by ractorbench being stopped while they ran \(Ctrl-Z, SIGSTOP/, report.out + report.err)
      refute_match(/machine was busy/, report.out)
      FileUtils.touch(flag)
    end
  end

  # A run that really hangs still times out after TIMEOUT seconds of the
  # collector's running time, and says so truly, with the stop recorded.
  def test_a_run_that_hangs_across_a_stop_times_out_on_running_time_with_the_stop_recorded
    out = File.join(@dir, "hang.jsonl")
    err = File.join(@dir, "hang.err")
    status = stopped_while_in_flight("STOP", out, err) {}
    assert_equal 1, status.exitstatus, File.read(err)
    run = run_of("h-hang", out)
    assert_equal %w[failed timeout], run.values_at("status", "failure")
    assert_match(/timed out after #{TIMEOUT}\.0s/o, run["reason"])
    assert_operator run["collector_stopped"], :>=, STOP - 1
    assert_equal true, run["disturbed"]
  end

  # Held out: a collector never stopped marks nothing (no field, and the
  # runs' disturbance is the machine's alone).
  def test_a_collection_never_stopped_records_no_stop
    File.delete(flag)
    result = hostile("h-hang,noop", "--reps", "2", "--timeout", "30")
    assert_equal 0, result.code, result.err
    runs_in(@out).each { |run| refute run.key?("collector_stopped"), run["id"] }
    refute_match(/DISTURBED/, result.err)
  end

  private

  def flag = File.join(@dir, "hang")

  # Starts h-hang in a process group of its own (a shell's job), sends the
  # group `signal` once the run is in flight, waits STOP seconds, yields
  # (the run may be let go meanwhile), continues the group; its status.
  def stopped_while_in_flight(signal, out, err)
    FileUtils.rm_f(File.join(@dir, "hang.pid"))
    @pid = hostile_in_background("h-hang", "--reps", "1", "--timeout", TIMEOUT.to_s, results: out, err: err, pgroup: true)
    wait_for { File.exist?(File.join(@dir, "hang.pid")) }
    Process.kill(signal, -@pid)
    wait_for { state(@pid) == "T" }
    sleep STOP
    yield
    sleep 0.5 # the child ends while its collector is still stopped
    Process.kill(:CONT, -@pid)
    _, status = Timeout.timeout(120) { Process.wait2(@pid) }
    @pid = nil
    status
  end

  def state(pid) = File.read("/proc/#{pid}/stat").split(") ").last.split.first
end
