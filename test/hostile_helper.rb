# frozen_string_literal: true

require "timeout"
require "ractorbench/plan/run_spec"

# What the hostile corpora share (test/fault_corpus_test.rb, issue 11, and
# the round-two files of issue 23): the hostile workloads of
# test/fixtures/hostile_workloads.rb run by the real CLI under a time guard,
# the runs read back, the plan checked complete after `--resume`, and
# processes checked dead. Include after CLIHelper and TempDir; @out is the
# results file, @dir the folder the workloads note their pids in.
module HostileHelper
  HOSTILE = File.join(FIXTURES, "hostile_workloads.rb")

  def setup
    super
    @out = File.join(@dir, "r.jsonl")
  end

  private

  # env: more variables for the workloads (HOSTILE_SIGNAL, ...).
  def hostile_env(results = @out, env = {}) = {"HOSTILE_DIR" => @dir, "HOSTILE_RESULTS" => results}.merge(env)

  def hostile(workloads, *args, results: @out, env: {})
    defaults = {"-m" => "serial", "--reps" => "1"}.except(*args).to_a.flatten
    guarded("run", "--load", HOSTILE, "-w", workloads, "--workers", "1", "--messages", "1", *defaults, *args,
      "-o", results, env: hostile_env(results, env))
  end

  def resume(path = @out, env: {}) = guarded("run", "--resume", path, env: hostile_env(path, env))

  # A collector in the background (its pid), its stderr in err; pgroup:
  # in a process group of its own, as a shell starts a job.
  def hostile_in_background(workloads, *args, results: @out, err: File::NULL, pgroup: false)
    Process.spawn(hostile_env(results), RbConfig.ruby, EXE, "run", "--load", HOSTILE, "-w", workloads, "-m", "serial",
      "--workers", "1", "--messages", "1", *args, "-o", results, out: File::NULL, err: err, pgroup: pgroup)
  end

  # The CLI as a user runs it, stopped (and the test failed) if it hangs:
  # a collector waiting for ever is one of the faults under test.
  def guarded(*args, env: {})
    Timeout.timeout(240) { ractorbench(*args, env: env) }
  rescue Timeout::Error
    flunk "ractorbench #{args.join(" ")} hung"
  end

  def run_of(workload, path = @out)
    runs_in(path).find { |r| r["workload"] == workload } || flunk("no run of #{workload} in #{path}")
  end

  def assert_plan_completes(path = @out)
    resumed = resume(path)
    assert_includes [0, 1], resumed.code, resumed.err
    assert_match(/resuming .*: \d+ runs done, 0 to go/, resumed.err)
    assert_plan_exact(path)
  end

  def assert_plan_exact(path)
    header = results_lines(path).first
    planned = Ractorbench::Plan::Matrix.from_h(header["plan"]).runs.map(&:id)
    ids = runs_in(path).map { |r| r["id"] }
    assert_equal ids.uniq, ids, "a run was recorded twice"
    assert_equal planned.sort, ids.sort, "the plan is not complete"
  end

  # A command in the background until `runs` runs are in results (or it
  # ends), then `midway` (the file or the disk changed under it), then its
  # end: a Result with its output.
  def changed_midway(*command, results:, env: {}, runs: 2, &midway)
    log, out = %w[err out].map { |name| File.join(@dir, "midway-#{name}-#{rand(1 << 30)}.txt") }
    pid = Process.spawn(env, RbConfig.ruby, EXE, *command, out: out, err: log)
    count = -> { File.exist?(results) ? File.foreach(results).count { |l| l.start_with?('{"type":"run"') } : 0 }
    wait_for(240) { count.call >= runs || Process.waitpid(pid, Process::WNOHANG) }
    midway.call
    _, status = Process.wait2(pid)
    pid = nil
    CLIHelper::Result.new(File.read(out), File.read(log), status)
  rescue Errno::ECHILD
    flunk "#{command.first} ended before #{runs} runs"
  ensure
    if pid
      Process.kill(:KILL, pid)
      Process.wait(pid)
    end
  end

  def wait_for(seconds = 60)
    Timeout.timeout(seconds) { sleep 0.05 until yield }
  end

  def noted_pid(name) = Integer(File.read(File.join(@dir, name)))

  # Killed processes linger as zombies until their parent reaps them: that
  # is dead. Waits up to `seconds` for it.
  def dead?(pid, seconds: 2)
    (seconds / 0.05).ceil.times do
      return true if File.read("/proc/#{pid}/stat").split(") ").last.split.first == "Z"

      sleep 0.05
    rescue Errno::ENOENT
      return true
    end
    false
  end
end
