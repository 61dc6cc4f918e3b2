# frozen_string_literal: true

require "test_helper"

# What each run cost, read by the child about itself and its workers (/proc
# on Linux): allocations made in forked workers count, sleeping workers'
# context switches count even when their threads have ended, and forked
# workers' page faults count once they are reaped.
class RunCostTest < Minitest::Test
  include CLIHelper
  include TempDir

  MODELS = Ractorbench::Plan::Catalog.default.models.map(&:name).freeze
  RUBIES = {"this Ruby" => RbConfig.ruby, "4.0.0" => "/opt/rubies/ruby-4.0.0/bin/ruby"}.freeze
  COST_KEYS = %w[minor_faults major_faults voluntary_switches involuntary_switches allocated_objects gc_count gc_time_ms].freeze

  RUBIES.each do |label, path|
    slug = label.tr(" .", "_")

    define_method(:"test_allocations_of_every_worker_are_counted_on_#{slug}") do
      skip "Ruby #{label} not installed at #{path} (../shared/rubies/install.sh installs it)" unless File.executable?(path)

      # 4 jobs of 2,000 iterations, 4 objects each. Ruby 4.0 adds a
      # ractor's allocations to the process's count in batches (at GC), so
      # up to a few percent of a ractor model's may not show yet.
      run_models(path, "-w", "alloc", "--param", "iterations=2000", "--messages", "2").each do |run|
        least = run["model"].start_with?("ractors") ? 4 * 2000 * 4 * 0.9 : 4 * 2000 * 4
        assert_operator run["allocated_objects"], :>=, least, "#{run["model"]} on #{label}"
      end
    end

    define_method(:"test_switches_and_faults_of_every_worker_are_counted_on_#{slug}") do
      skip "Ruby #{label} not installed at #{path} (../shared/rubies/install.sh installs it)" unless File.executable?(path)

      runs = run_models(path, "--load", fixture("napping_jobs.rb"), "-w", "napping-jobs", "--messages", "5")
      runs.each do |run|
        # 10 jobs that each sleep: even fibers, whose sleeps overlap two at
        # a time, wait in the kernel at least once per pair.
        assert_operator run["voluntary_switches"], :>=, 5, "#{run["model"]} on #{label}"
      end
      serial = runs.find { |r| r["model"] == "serial" }
      %w[processes processes-split].each do |model|
        forked = runs.find { |r| r["model"] == model }
        assert_operator forked["minor_faults"], :>, serial["minor_faults"], "#{model}'s workers' faults on #{label}"
      end
    end
  end

  private

  def run_models(ruby, *args)
    skip "no /proc on this machine: the figures are nil by design" unless File.exist?("/proc/self/stat")

    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", *args, "-m", MODELS.join(","), "--workers", "2", "--reps", "1",
      "--ruby", "r=#{ruby}", "-o", out)
    assert_equal 0, result.code, result.out + result.err
    runs = runs_in(out)
    assert_equal MODELS.sort, runs.map { |r| r["model"] }.sort
    runs.each do |run|
      assert_equal "ok", run["status"], "#{run["model"]}: #{run["reason"]}"
      COST_KEYS.each { |k| assert_kind_of Integer, run[k], "#{run["model"]} #{k}" }
    end
    runs
  end
end
