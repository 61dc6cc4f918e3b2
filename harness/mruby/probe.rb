# frozen_string_literal: true

# mruby's probe (CRuby's is harness/probe.rb): what this mruby is and what
# it was built with, as one record on the result channel. mruby's core has
# no Thread, Ractor, fork, Marshal or RubyGems, and which of Fiber, IO and
# Time it has depends on the gems compiled in, so each is looked for here.
# Run as `mruby -r harness/mruby/channel.rb harness/mruby/probe.rb`.
def ractorbench_has?(constant, method = nil)
  return false unless Object.const_defined?(constant)

  method.nil? || Object.const_get(constant).respond_to?(method)
end

features = {
  # What the driver asks every Ruby (harness/probe.rb's keys).
  "ractor" => ractorbench_has?(:Ractor, :new),
  "fork" => ractorbench_has?(:Process, :fork),
  "yjit" => false, "zjit" => false, "jit_enabled" => false,
  # What the mruby child's subjects need (harness/mruby/subjects.rb).
  "proc" => ractorbench_has?(:Proc, :new),
  "fiber" => ractorbench_has?(:Fiber, :new),
  "io_pipe" => ractorbench_has?(:IO, :pipe),
  "io_select" => ractorbench_has?(:IO, :select),
  "monotonic_clock" => ractorbench_has?(:Process, :clock_gettime),
  "time" => ractorbench_has?(:Time, :now),
  "gc_disable" => ractorbench_has?(:GC, :disable),
  "thread" => ractorbench_has?(:Thread, :new),
  "marshal" => ractorbench_has?(:Marshal, :dump)
}
Ractorbench::Mruby::Channel.write(
  "ractorbench_probe" => 1,
  "description" => MRUBY_DESCRIPTION,
  # mruby's own release: its RUBY_VERSION is the language level ("3.1").
  "version" => MRUBY_VERSION,
  "language_version" => RUBY_VERSION,
  "engine" => RUBY_ENGINE,
  "platform" => nil,
  "executable" => nil,
  "features" => features
)
