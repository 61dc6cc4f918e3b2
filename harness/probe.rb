# frozen_string_literal: true

# Run by the driver with each Ruby under test to learn what it is and what it
# can do; sends one record on the result channel (Harness::Channel), as a
# measured run does. Feature detection only, never version maths.
require_relative "ractorbench/harness/program_start"
require_relative "ractorbench/harness/mn_check"
require_relative "ractorbench/harness/channel"

Ractorbench::Harness::Channel.io

ractor = Object.const_defined?(:Ractor) && Ractor.respond_to?(:new)
yjit = Object.const_defined?(:RubyVM) && RubyVM.const_defined?(:YJIT)
zjit = Object.const_defined?(:RubyVM) && RubyVM.const_defined?(:ZJIT)
features = {
  "ractor" => ractor,
  "ractor_port" => ractor && Ractor.const_defined?(:Port),
  "ractor_value" => ractor && Ractor.method_defined?(:value),
  "fork" => Process.respond_to?(:fork),
  "yjit" => yjit,
  # RJIT compiled in (Ruby 3.3/3.4): like YJIT, it brought the per-instruction counter.
  "rjit" => Object.const_defined?(:RubyVM) && RubyVM.const_defined?(:RJIT),
  "yjit_enabled" => yjit && RubyVM::YJIT.enabled?,
  "zjit" => zjit,
  "zjit_enabled" => zjit && RubyVM::ZJIT.enabled?,
  # Any other JIT in force: the report keeps a JIT Ruby's first run apart.
  "jit_enabled" => Object.const_defined?(:RubyVM) &&
    %i[ZJIT RJIT MJIT].any? { |jit| RubyVM.const_defined?(jit) && RubyVM.const_get(jit).enabled? },
  "gc_time" => GC.stat.key?(:time),
  # Only when RUBY_MN_THREADS / RUBY_MAX_CPU are set: did they take effect?
  "mn" => Ractorbench::Harness::MNCheck.call
}
Ractorbench::Harness::Channel.write(
  "ractorbench_probe" => 1,
  "description" => RUBY_DESCRIPTION,
  "version" => RUBY_VERSION,
  "engine" => defined?(RUBY_ENGINE) ? RUBY_ENGINE : "ruby",
  "platform" => RUBY_PLATFORM,
  "executable" => (RbConfig.ruby rescue nil), # rubocop:disable Style/RescueModifier
  "features" => features
)
