# frozen_string_literal: true

require "test_helper"

# A crash, a timeout, an exception and a wrong result are each a recorded
# failure with its reason, and the other runs still complete.
class FailuresTest < Minitest::Test
  include CLIHelper

  def setup
    @dir = Dir.mktmpdir
    @out = File.join(@dir, "r.jsonl")
  end

  def teardown
    FileUtils.rm_rf(@dir)
  end

  def test_each_failure_is_recorded_and_the_collection_goes_on
    result = ractorbench("run", "--load", fixture("failing_workloads.rb"), "-w", "segfault,sleeper,raiser,prime",
      "-m", "serial", "--workers", "1", "--messages", "3", "--param", "seconds=5", "--timeout", "1.5", "--reps", "1", "-o", @out)
    assert_equal 1, result.code, "a collection with failures exits 1"
    runs = runs_in(@out).to_h { |r| [r["workload"], r] }
    assert_equal 4, runs.size

    assert_equal ["failed", "crash"], runs["segfault"].values_at("status", "failure")
    # Ruby turns SIGSEGV into a [BUG] report and abort(); the reason names both.
    assert_match(/Segmentation fault/, runs["segfault"]["reason"])
    assert_match(/SIGABRT|SIGSEGV/, runs["segfault"]["reason"])

    assert_equal ["failed", "timeout"], runs["sleeper"].values_at("status", "failure")
    assert_match(/timed out after 1.5s/, runs["sleeper"]["reason"])

    assert_equal ["failed", "exception"], runs["raiser"].values_at("status", "failure")
    assert_match(/ArgumentError: planted failure/, runs["raiser"]["reason"])
    assert_includes runs["raiser"]["stderr_tail"], "raiser: about to fail"

    assert_equal "ok", runs["prime"]["status"]
    assert_match(%r{1/4 runs succeeded, 3 failed}, result.out)
    assert_match(/FAILED segfault/, result.err)
  end

  def test_a_timeout_kills_the_whole_process_group
    marker = File.join(@dir, "worker-pids")
    script = File.join(@dir, "forker.rb")
    File.write(script, <<~RUBY)
      require #{File.join(ROOT, "harness/ractorbench/harness").inspect}
      module Forker
        extend Ractorbench::Harness::Workload
        workload "forker", "forks a worker that would outlive its parent"
        def self.work(_job)
          pid = fork { sleep 60 }
          File.write(#{marker.inspect}, pid.to_s)
          sleep 60
        end
      end
    RUBY
    ractorbench("run", "--load", script, "-w", "forker", "-m", "serial", "--workers", "1", "--messages", "1",
      "--timeout", "1", "--reps", "1", "-o", @out)
    pid = Integer(File.read(marker))
    assert dead?(pid), "the grandchild #{pid} survived the timeout"
    assert_equal "timeout", runs_in(@out).first["failure"]
  end

  # Killed processes linger as zombies until init reaps them: that is dead.
  def dead?(pid)
    20.times do
      state = File.read("/proc/#{pid}/stat").split(") ").last.split.first
      return true if state == "Z"

      sleep 0.1
    rescue Errno::ENOENT
      return true
    end
    false
  end

  def test_a_wrong_result_is_caught_by_the_known_digest
    result = ractorbench("run", "--load", fixture("corrupting_model.rb"), "-w", "prime", "-m", "corrupting",
      "--workers", "2", "--messages", "25", "--reps", "1", "-o", @out)
    run = runs_in(@out).first
    assert_equal ["failed", "wrong_result"], run.values_at("status", "failure")
    assert_match(/differs from the published aOpn1q9DW6RFwfKCTcd8N0UyzOA=/, run["reason"])
    assert_equal 1, result.code
  end

  def test_models_that_disagree_are_reported_loudly_and_excluded
    # 2 x 30 = 60 chunks: no published digest, so only the models' consensus can tell.
    result = ractorbench("run", "--load", fixture("corrupting_model.rb"), "-w", "prime", "-m", "serial,threads,corrupting",
      "--workers", "2", "--messages", "30", "--reps", "2", "-o", @out)
    assert_equal 1, result.code
    assert_match(/DIGESTS DISAGREE for prime \(60 jobs\)/, result.out)
    assert_match(%r{WRONG prime/corrupting/w2/m30/ruby/rep1}, result.out)
    assert_match(%r{4/6 runs succeeded, 2 failed}, result.out)

    report = ractorbench("report", @out, "--format", "json")
    assert_equal 1, report.code, "report exits non-zero when digests disagree"
    data = JSON.parse(report.out)
    refute data["digests_agree"]
    corrupting = data["configurations"].find { |c| c["model"] == "corrupting" }
    assert_equal 0, corrupting["samples"], "disagreeing runs are excluded from the statistics"
    assert_equal 2, corrupting["failed"]
  end
end
