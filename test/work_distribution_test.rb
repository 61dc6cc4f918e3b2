# frozen_string_literal: true

require "test_helper"
require "ractorbench/plan/catalog"

# Every pooled model spreads few long jobs over its workers and records how
# many each did: at W=2 with 2, 3 and 40 jobs, no worker is idle while another
# does two, and the counts add up to the jobs. Real CLI, real children, on
# each Ruby under test that is installed.
class WorkDistributionTest < Minitest::Test
  include CLIHelper
  include TempDir

  POOLED = %w[threads processes ractors ractors-pipeless ractors-batched fibers processes-split ractors-split].freeze
  OTHER_RUBIES = {"4.0.0" => "/opt/rubies/ruby-4.0.0/bin/ruby"}.freeze

  def test_every_model_but_serial_is_checked_here
    assert_equal POOLED.sort, (Ractorbench::Plan::Catalog.default.models.map(&:name) - ["serial"]).sort
  end

  def test_few_and_many_long_jobs_are_spread_on_this_ruby
    assert_spread_fairly(RbConfig.ruby)
  end

  OTHER_RUBIES.each do |version, path|
    define_method(:"test_few_and_many_long_jobs_are_spread_on_ruby_#{version.delete(".")}") do
      skip "Ruby #{version} not installed at #{path} (../shared/rubies/install.sh installs it)" unless File.executable?(path)

      assert_spread_fairly(path)
    end
  end

  private

  def assert_spread_fairly(ruby)
    # Long jobs, then a few tiny ones: a worker that starts first must not
    # take both of two tiny jobs while the other is still starting either.
    [[2, 27], [3, 27], [40, 27], [2, 5], [3, 5]].each do |jobs, n|
      runs = run_jobs(ruby, jobs, n)
      assert_equal POOLED.sort, runs.map { |r| r["model"] }.sort
      runs.each do |run|
        label = "#{run["model"]} with #{jobs} jobs of fib(#{n}) on #{ruby}"
        assert_equal "ok", run["status"], "#{label}: #{run["reason"]}"
        counts = run["worker_jobs"]
        assert_kind_of Array, counts, "#{label} recorded no worker_jobs"
        assert_equal 2, counts.size, "#{label}: #{counts.inspect}"
        assert_equal jobs, counts.sum, "#{label}: #{counts.inspect}"
        refute counts.max >= 2 && counts.min.zero?, "#{label}: a worker idle while another did two: #{counts.inspect}"
      end
    end
  end

  # fib(27) takes ~30 ms (3.1, this 2-core machine): long enough that queueing ahead or a GVL holder
  # taking job after job would show.
  def run_jobs(ruby, jobs, n)
    out = File.join(@dir, "jobs#{jobs}-#{n}.jsonl")
    result = ractorbench("run", "--load", fixture("long_jobs.rb"), "-w", "long-jobs", "-m", POOLED.join(","),
      "--workers", "2", "--messages", "1", "--param", "jobs=#{jobs}", "--param", "n=#{n}", "--reps", "1",
      "--ruby", "r=#{ruby}", "-o", out)
    assert_equal 0, result.code, result.out + result.err
    runs_in(out)
  end
end
