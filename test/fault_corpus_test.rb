# frozen_string_literal: true

require "test_helper"
require "hostile_helper"

# Nothing a workload does breaks a collection (issue 11): each hostile
# workload of test/fixtures/hostile_workloads.rb gets the outcome promised
# for it, the results file stays readable, nothing it started is left
# running, and `--resume` then completes the plan exactly: every planned run
# once.
class FaultCorpusTest < Minitest::Test
  include CLIHelper
  include TempDir
  include HostileHelper

  def test_a_crash_is_a_recorded_failure
    result = hostile("h-crash,noop")
    assert_equal 1, result.code, result.err
    assert_equal %w[failed crash], run_of("h-crash").values_at("status", "failure")
    assert_plan_completes
  end

  def test_a_hang_is_killed_at_the_timeout
    FileUtils.touch(File.join(@dir, "hang"))
    result = hostile("h-hang,noop", "--timeout", "1")
    assert_equal 1, result.code, result.err
    assert_equal "timeout", run_of("h-hang")["failure"]
    assert dead?(Integer(File.read(File.join(@dir, "hang.pid")))), "the hanging child survived its timeout"
    assert_plan_completes
  end

  # A process that left the run's group held its stdout: the collector used
  # to wait for it for ever. Now it is found (by the run's mark in its
  # environment, or by the pipe it holds), killed, and the run is failed.
  def test_processes_that_escape_the_group_are_killed_and_the_run_failed
    result = hostile("h-escape-pgroup,h-escape-setsid,h-escape-bare,noop")
    assert_equal 1, result.code, result.err
    %w[pgroup setsid bare].each do |how|
      run = run_of("h-escape-#{how}")
      assert_equal "escaped", run["failure"], run["reason"]
      pid = Integer(File.read(File.join(@dir, "escape-#{how}.pid")))
      assert_match(/left 1 process running outside its process group \(pid #{pid}\), killed/, run["reason"])
      assert dead?(pid), "the escaped process #{pid} (#{how}) is still running"
    end
    assert_equal "ok", run_of("noop")["status"]
    assert_plan_completes
  end

  def test_garbage_on_the_result_channel_is_a_recorded_failure
    result = hostile("h-garbage,h-huge,h-deep,h-table,noop")
    assert_equal 1, result.code, result.err
    {
      "h-garbage" => /not a Marshal dump/, "h-huge" => /more than 8 MB/,
      "h-deep" => /nested more than 64 deep/, "h-table" => /claims \d+ elements with \d+ bytes left/
    }.each do |workload, why|
      run = run_of(workload)
      assert_equal "garbage", run["failure"], run["reason"]
      assert_match(/\Agarbage on the result channel \(fd 3\): /, run["reason"])
      assert_match why, run["reason"]
    end
    assert_plan_completes
  end

  def test_bytes_that_are_not_utf8_and_nan_are_stored_as_valid_json
    result = hostile("h-binary,h-binary-digest", "-m", "serial,h-nan", "--reps", "2")
    assert_equal 1, result.code, result.err
    assert File.read(@out).valid_encoding?
    raised = run_of("h-binary")
    assert_equal "exception", raised["failure"]
    assert_includes raised["reason"], 'ArgumentError: bad \xFF\xFE bytes \xC3'
    digests = runs_in(@out).select { |r| r["workload"] == "h-binary-digest" }.map { |r| r["digest"] }
    assert_equal ['\xFF' + "\u0000" + '\xFE'] * 4, digests, "raw bytes are kept apart, and agree"
    nan = runs_in(@out).find { |r| r["model"] == "h-nan" && r["workload"] == "h-binary-digest" }
    assert_nil nan["ratio"]
    assert_equal({"ratio" => "NaN", "spread" => "-Infinity"}, nan["non_finite"])
    assert_equal 0, ractorbench("report", @out, "--format", "json").code
    assert_plan_completes
  end

  # A run that kills the collector runs again once (it may have been
  # anything: kill -9, the OOM killer); when it takes the collector down a
  # second time it is recorded as failed and the collection finishes.
  def test_a_run_that_kills_the_collector_is_recorded_failed_not_retried_for_ever
    first = hostile("h-kill-parent,noop", "--seed", "3")
    assert first.status.signaled?, "the collector was meant to be killed: #{first.err}"
    again = guarded("run", "--resume", @out, env: hostile_env)
    assert again.status.signaled?, "its first resume runs it once more: #{again.err}"
    last = guarded("run", "--resume", @out, env: hostile_env)
    assert_equal 1, last.code, last.err
    assert_match(/FAILED h-kill-parent.*: the collector died during this run, each of the 2 times it ran/, last.err)
    run = run_of("h-kill-parent")
    assert_equal %w[failed collector_died], run.values_at("status", "failure")
    assert_plan_completes
  end

  def test_a_deleted_results_file_is_written_back
    result = hostile("h-delete,noop", "--reps", "2")
    assert_equal 0, result.code, result.err
    assert_match(/warning: .*r\.jsonl was deleted; it was written back/, result.err)
    assert_equal 4, runs_in(@out).size
    assert_plan_completes
  end

  # A signal to the collector kills the run in flight with its tree, says
  # how to resume, and exits 128 + the signal; the file is complete up to
  # the last finished run.
  def test_sigint_and_sigterm_kill_the_run_in_flight_and_say_how_to_resume
    pid = nil
    {"INT" => 130, "TERM" => 143}.each do |signal, code|
      out = File.join(@dir, "#{signal}.jsonl")
      FileUtils.touch(File.join(@dir, "hang"))
      File.delete(File.join(@dir, "hang.pid")) if File.exist?(File.join(@dir, "hang.pid"))
      err = File.join(@dir, "#{signal}.err")
      pid = Process.spawn(hostile_env, RbConfig.ruby, EXE, "run", "--load", HOSTILE, "-w", "h-hang,noop", "-m", "serial",
        "--workers", "1", "--messages", "1", "--reps", "2", "--seed", "1", "-o", out, out: File::NULL, err: err)
      wait_for { File.exist?(File.join(@dir, "hang.pid")) }
      Process.kill(signal, pid)
      _, status = Timeout.timeout(60) { Process.wait2(pid) }
      pid = nil
      assert_equal code, status.exitstatus, File.read(err)
      assert_match(/stopped by SIG#{signal}: the run in flight was killed; .* `ractorbench run --resume .*#{signal}\.jsonl` finishes it/,
        File.read(err))
      assert dead?(Integer(File.read(File.join(@dir, "hang.pid")))), "the run in flight outlived SIG#{signal}"
      File.delete(File.join(@dir, "hang"))
      resumed = guarded("run", "--resume", out, env: hostile_env)
      assert_equal 0, resumed.code, resumed.err
      assert_plan_exact(out)
    end
  ensure
    FileUtils.rm_f(File.join(@dir, "hang"))
    Process.kill(:KILL, pid) && Process.wait(pid) if pid
  end

  def test_a_second_writer_is_refused
    FileUtils.touch(File.join(@dir, "hang"))
    pid = Process.spawn(hostile_env, RbConfig.ruby, EXE, "run", "--load", HOSTILE, "-w", "h-hang,noop", "-m", "serial",
      "--workers", "1", "--messages", "1", "--reps", "1", "-o", @out, out: File::NULL, err: File::NULL)
    wait_for { File.exist?(File.join(@dir, "hang.pid")) }
    second = guarded("run", "--resume", @out, env: hostile_env)
    assert_usage_error second, /r\.jsonl is being written by another ractorbench .*wait for it to finish/
    forced = guarded("run", "--load", HOSTILE, "-w", "noop", "-o", @out, "--force", env: hostile_env)
    assert_usage_error forced, /r\.jsonl is being written by another ractorbench/
    File.delete(File.join(@dir, "hang"))
    _, status = Timeout.timeout(60) { Process.wait2(pid) }
    pid = nil
    assert_equal 0, status.exitstatus, "the first writer finished undisturbed"
    assert_plan_completes
  ensure
    FileUtils.rm_f(File.join(@dir, "hang"))
    Process.kill(:TERM, pid) && Process.wait(pid) if pid
  end

  # A small file system (tmpfs) filled up: during the header nothing is
  # left behind; during the collection the file is cut back to its last
  # whole line, and once there is room --resume finishes it.
  def test_a_full_disk_leaves_a_usable_file
    disk = File.join(@dir, "disk")
    FileUtils.mkdir_p(disk)
    _, err, status = Open3.capture3("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", disk)
    skip "cannot mount a small tmpfs here (#{err.strip}); run as root to test a full disk" unless status.success?
    begin
      out = File.join(disk, "r.jsonl")
      filler = File.join(disk, "filler")
      fill(filler, leave: 0)
      full = hostile("noop", "--reps", "16", results: out)
      assert_usage_error full, /cannot write results to .*r\.jsonl: No space left on device/
      assert_equal ["filler"], Dir.children(disk), "nothing is left behind"

      fill(filler, leave: 12_288)
      midway = hostile("noop", "--reps", "16", results: out)
      assert_equal 1, midway.code, midway.err
      assert_equal 1, midway.err.lines.grep(/ractorbench: cannot write to .*r\.jsonl: No space left on device \(writing to .*disk\); the runs recorded before it are kept/).size, midway.err
      recorded = runs_in(out).size
      assert_operator recorded, :<, 16
      assert_equal 0, ractorbench("report", out).code, "the file is usable as it is"
      File.delete(filler)
      resumed = guarded("run", "--resume", out, env: hostile_env)
      assert_equal 0, resumed.code, resumed.err
      assert_plan_exact(out)
    ensure
      system("umount", disk)
    end
  end

  private

  def fill(path, leave:)
    File.open(path, "w") do |f|
      f.syswrite("x" * 4096) while true # rubocop:disable Style/InfiniteLoop
    rescue Errno::ENOSPC
      nil
    end
    File.truncate(path, [File.size(path) - leave, 0].max)
  end
end
