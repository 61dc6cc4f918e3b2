# frozen_string_literal: true

require "test_helper"

# processes-split and ractors-split give each worker its share of the jobs in
# one message: they must compute what serial computes, with shares that
# differ by at most one job, on every Ruby under test that is installed.
class SplitModelsTest < Minitest::Test
  include CLIHelper
  include TempDir

  RUBIES = {
    "this Ruby" => RbConfig.ruby,
    "3.4.0" => "/opt/rubies/ruby-3.4.0/bin/ruby",
    "4.0.0" => "/opt/rubies/ruby-4.0.0/bin/ruby"
  }.freeze

  RUBIES.each do |label, path|
    define_method(:"test_split_models_match_serial_on_#{label.tr(" .", "_")}") do
      skip "Ruby #{label} not installed at #{path} (../shared/rubies/install.sh installs it)" unless File.executable?(path)

      assert_split_matches_serial(path)
    end
  end

  private

  # W=3 and 7 messages: 21 prime chunks, shares of 7; tarai with W=2, M=3.
  def assert_split_matches_serial(ruby)
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", "prime,tarai", "-m", "serial,processes-split,ractors-split",
      "--workers", "3", "--messages", "7", "--param", "x=8", "--param", "y=4", "--param", "z=0",
      "--reps", "1", "--ruby", "r=#{ruby}", "-o", out)
    assert_equal 0, result.code, result.out + result.err
    runs = runs_in(out)
    assert_equal 6, runs.size
    runs.group_by { |r| r["workload"] }.each do |workload, group|
      serial = group.find { |r| r["model"] == "serial" }
      group.each do |run|
        assert_equal "ok", run["status"], "#{workload} #{run["model"]}: #{run["reason"]}"
        assert_equal serial["digest"], run["digest"], "#{workload} #{run["model"]} on #{ruby}"
        next if run["model"] == "serial"

        assert_equal [7, 7, 7], run["worker_jobs"], "#{workload} #{run["model"]}"
      end
    end
  end
end
