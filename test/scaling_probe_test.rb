# frozen_string_literal: true

require "test_helper"
require "ractorbench/measure/child_environment"

# harness/scaling_probe.rb runs in each Ruby under test: one JSON object with
# the CPU per iteration of 1 and of W ractors. Its figures are timings, so
# only their shape is checked here; `rake bench:scaling_probe` prints them.
class ScalingProbeTest < Minitest::Test
  PROBE = File.join(ROOT, "harness", "scaling_probe.rb")
  RUBIES = {
    "this Ruby" => RbConfig.ruby,
    "3.4.0" => "/opt/rubies/ruby-3.4.0/bin/ruby",
    "4.0.0" => "/opt/rubies/ruby-4.0.0/bin/ruby"
  }.freeze

  RUBIES.each do |label, path|
    define_method(:"test_probe_reports_one_and_w_ractors_on_#{label.tr(" .", "_")}") do
      skip "Ruby #{label} not installed at #{path} (../shared/rubies/install.sh installs it)" unless File.executable?(path)

      out, err, status = Open3.capture3(Ractorbench::Measure::ChildEnvironment.base, path, PROBE, "3", unsetenv_others: true)
      assert status.success?, err
      assert_empty err, "the probe must not print warnings"
      scaling = JSON.parse(out).fetch("ractor_scaling")
      assert_equal 3, scaling["workers"]
      assert_operator scaling["iterations"], :>=, 100_000
      %w[cpu_ns_per_iteration_1 cpu_ns_per_iteration_w cpu_ratio wall_speedup].each do |key|
        assert_operator scaling[key], :>, 0, key
      end
      assert_in_delta scaling["cpu_ns_per_iteration_w"] / scaling["cpu_ns_per_iteration_1"], scaling["cpu_ratio"], 0.01
    end
  end

  def test_a_bad_worker_count_is_one_line
    _out, err, status = Open3.capture3(RbConfig.ruby, PROBE, "zero")
    refute status.success?
    assert_equal ["scaling_probe.rb: W must be a positive integer, got \"zero\"\n"], err.lines
  end
end
