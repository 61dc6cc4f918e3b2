# frozen_string_literal: true

require "test_helper"
require "hostile_helper"

# Every child ractorbench starts goes through one launcher
# (Measure::Launcher): a measured run, the probe of a Ruby and `try`'s
# check. Each meets the same three faults - a child that sleeps past
# --timeout, one that crashes, one that writes garbage on its result channel
# - and each turns them into one clear outcome, leaving nothing running.
class LauncherTest < Minitest::Test
  include CLIHelper
  include TempDir
  include HostileHelper

  def test_a_measured_run_times_out_crashes_or_sends_garbage
    FileUtils.touch(File.join(@dir, "hang"))
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "--load", fixture("hostile_workloads.rb"), "-w", "h-hang,h-crash,h-garbage", "-m", "serial",
      "--workers", "1", "--messages", "1", "--reps", "1", "--timeout", "1", "-o", out, env: {"HOSTILE_DIR" => @dir})
    assert_equal 1, result.code, result.err
    failures = runs_in(out).to_h { |r| [r["workload"], r["failure"]] }
    assert_equal({"h-hang" => "timeout", "h-crash" => "crash", "h-garbage" => "garbage"}, failures)
    assert dead?(Integer(File.read(File.join(@dir, "hang.pid"))))
  end

  def test_the_probe_of_a_ruby_times_out_crashes_or_sends_garbage
    {
      "slow" => ["echo $$ > #{@dir}/slow.pid; exec sleep 30", /--ruby slow: \S+ did not answer within 1s \(--timeout\): is it a Ruby\?/],
      "crash" => ["kill -SEGV $$", /--ruby crash: \S+ is not a Ruby \(it was killed by SIGSEGV\)/],
      "garbage" => ["printf 'not Marshal' >&3", /--ruby garbage: \S+ is not a Ruby \(garbage on the result channel: not a Marshal dump/]
    }.each do |name, (script, message)|
      ruby = File.join(@dir, name)
      File.write(ruby, "#!/bin/sh\n#{script}\n")
      File.chmod(0o755, ruby)
      out = File.join(@dir, "#{name}.jsonl")
      assert_usage_error ractorbench("run", "--ruby", "#{name}=#{ruby}", "-w", "noop", "--timeout", "1", "-o", out), message
      refute File.exist?(out)
    end
    assert dead?(Integer(File.read(File.join(@dir, "slow.pid")))), "the probe that timed out is still running"
  end

  def test_the_try_check_times_out_crashes_or_sends_garbage
    {
      "never_finishes.rb" => /never_finishes\.rb:5: work\(item\) did not finish within 3s \(--timeout\)/,
      "crashes.rb" => /crashes\.rb: the Ruby running it was killed by SIGKILL during work\(item\)/,
      "writes_fd3.rb" => /writes_fd3\.rb: the check's records could not be read: garbage on the result channel \(.*\); does the work write to file descriptor 3\?/
    }.each do |file, message|
      out = File.join(@dir, "#{file}.jsonl")
      result = ractorbench("try", "test/fixtures/try/#{file}", "--timeout", "3", "--check", "-o", out, chdir: ROOT)
      assert_usage_error result, message
    end
  end
end
