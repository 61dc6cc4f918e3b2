# frozen_string_literal: true

# Run by the driver with each Ruby under test to learn what it is and what it
# can do; prints one JSON object. Feature detection only, never version maths.
require "json"

features = {
  "ractor" => defined?(Ractor) && Ractor.respond_to?(:new) ? true : false,
  "ractor_port" => defined?(Ractor::Port) ? true : false,
  "ractor_value" => defined?(Ractor) && Ractor.method_defined?(:value) ? true : false,
  "fork" => Process.respond_to?(:fork),
  "yjit" => defined?(RubyVM::YJIT) ? true : false,
  "yjit_enabled" => defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? true : false,
  "gc_time" => GC.stat.key?(:time)
}
puts JSON.generate(
  "ractorbench_probe" => 1,
  "description" => RUBY_DESCRIPTION,
  "version" => RUBY_VERSION,
  "engine" => defined?(RUBY_ENGINE) ? RUBY_ENGINE : "ruby",
  "platform" => RUBY_PLATFORM,
  "executable" => (RbConfig.ruby rescue nil), # rubocop:disable Style/RescueModifier
  "features" => features
)
