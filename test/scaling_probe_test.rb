# frozen_string_literal: true

require "test_helper"
require "ractorbench/rubies/target"

# harness/scaling_probe.rb runs in each Ruby under test, started by the one
# launcher as every child is: the CPU per iteration of 1 and of W ractors.
# Its figures are timings, so only their shape is checked here;
# `rake bench:trust:probe` prints them.
class ScalingProbeTest < Minitest::Test
  RUBIES = {
    "this Ruby" => RbConfig.ruby,
    "3.4.0" => "/opt/rubies/ruby-3.4.0/bin/ruby",
    "4.0.0" => "/opt/rubies/ruby-4.0.0/bin/ruby"
  }.freeze

  RUBIES.each do |label, path|
    define_method(:"test_probe_reports_one_and_w_ractors_on_#{label.tr(" .", "_")}") do
      skip "Ruby #{label} not installed at #{path} (../shared/rubies/install.sh installs it)" unless File.executable?(path)

      target = Ractorbench::Rubies::Target.new(name: label, argv: [path]).probe!
      scaling = target.scaling_probe!(3).info.fetch("ractor_scaling")
      refute scaling.key?("reason"), scaling["reason"]
      assert_equal 3, scaling["workers"]
      assert_operator scaling["iterations"], :>=, 100_000
      %w[cpu_ns_per_iteration_1 cpu_ns_per_iteration_w cpu_ratio wall_speedup].each do |key|
        assert_operator scaling[key], :>, 0, key
      end
      assert_in_delta scaling["cpu_ns_per_iteration_w"] / scaling["cpu_ns_per_iteration_1"], scaling["cpu_ratio"], 0.01
    end
  end

  # A Ruby whose probe dies says why, and the collection goes on.
  def test_a_failing_probe_leaves_its_reason
    target = Ractorbench::Rubies::Target.new(name: "host", argv: [RbConfig.ruby]).probe!
    broken = Ractorbench::Rubies::Target.new(name: "broken", argv: [RbConfig.ruby, "-e", "exit 3", "--"])
    broken.instance_variable_set(:@info, target.info.dup)
    reason = broken.scaling_probe!(2).info.fetch("ractor_scaling").fetch("reason")
    assert_match(/the probe failed: /, reason)
  end
end
