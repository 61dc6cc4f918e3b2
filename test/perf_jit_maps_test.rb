# frozen_string_literal: true

require_relative "test_helper"
require "ractorbench/profile/perf"
require "ractorbench/rubies/target"

# perf names a JIT's compiled code only through the JIT's perf map, which the
# profiled run asks for with --yjit-perf when its Ruby has YJIT on and takes
# the flag. That check starts the Ruby under test, which must start as a
# measured run does: under `bundle exec` (as the tests run), this process's
# bundler/setup in RUBYOPT would make another Ruby fail before it looked at
# the flag.
class PerfJitMapsTest < Minitest::Test
  RUBY40 = "/opt/rubies/ruby-4.0.0/bin/ruby"

  def test_a_ruby_with_yjit_on_gets_its_perf_map_flag
    skip "needs #{RUBY40}" unless File.executable?(RUBY40)

    target = Ractorbench::Rubies::Target.parse("yjit=#{RUBY40} --yjit")
    target.probe!
    assert target.probe.features.yjit_enabled, "the probe should see YJIT on"
    assert_equal ["--yjit-perf"], Ractorbench::Profile::Perf.jit_maps(target)
  end

  def test_a_ruby_with_no_jit_on_gets_none
    target = Ractorbench::Rubies::Target.parse("plain=#{RbConfig.ruby} --disable-gems")
    target.probe!
    assert_equal [], Ractorbench::Profile::Perf.jit_maps(target)
  end
end
