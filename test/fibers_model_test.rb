# frozen_string_literal: true

require "test_helper"
require_relative "../harness/models/fibers"

# The fibers model: W fibers under async's Fiber::Scheduler.
class FibersModelTest < Minitest::Test
  include CLIHelper

  # Records how many jobs were in flight at once. Each job sleeps, which
  # the scheduler turns into a switch, so every fiber gets a job before
  # the first one wakes: no timing involved.
  class InFlight
    attr_reader :most

    def initialize
      @now = 0
      @most = 0
    end

    def work(job)
      @now += 1
      @most = [@most, @now].max
      sleep(0.001)
      @now -= 1
      job * 2
    end
  end

  def test_fibers_overlap_their_waits_and_return_every_result
    workload = InFlight.new
    results = Ractorbench::Models::Fibers.run(workload, (1..12).to_a, 4)
    assert_equal (1..12).map { |j| j * 2 }.sort, results.sort
    assert_equal 4, workload.most, "4 fibers should have had 4 jobs waiting at once"
  end

  def test_fibers_agree_with_serial_and_threads
    Dir.mktmpdir do |dir|
      out = File.join(dir, "r.jsonl")
      result = ractorbench("run", "--load", fixture("napping_jobs.rb"), "-w", "napping-jobs", "-m", "serial,threads,fibers",
        "--workers", "3", "--messages", "4", "--reps", "1", "-o", out)
      assert_equal 0, result.code, result.err
      runs = runs_in(out)
      assert_equal %w[fibers serial threads], runs.map { |r| r["model"] }.sort
      assert(runs.all? { |r| r["status"] == "ok" }, runs.inspect)
      assert_equal 1, runs.map { |r| r["digest"] }.uniq.size
      assert_match(/Digests agree/, result.out)
    end
  end
end
