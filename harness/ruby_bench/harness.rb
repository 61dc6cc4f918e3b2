# frozen_string_literal: true

# ractorbench's harness for a ruby-bench checkout's benchmarks. ruby-bench
# picks a benchmark's harness by load path: each benchmark requires
# ../harness/loader, whose `require "harness"` loads the first harness.rb on
# the load path. A ractorbench child puts this folder first there (see
# workloads/ruby_bench.rb), so the benchmark's run_benchmark is this one: it
# keeps the block for ractorbench's models to run, where ruby-bench's own
# harness would time it. The rest is what ruby-bench's Ractor harness gives a
# benchmark: RUBY_BENCH_RACTOR_HARNESS=1 (several benchmarks make their
# globals shareable only then), make_shareable, ractor_deep_dup, use_gemfile,
# a seeded generator, and a shareable main object.
require_relative "../ractorbench/harness/ractor_compat"
require_relative "../ractorbench/harness/ruby_bench/script"
require_relative "../ractorbench/harness/ruby_bench/gems"
require_relative "../ractorbench/harness/ruby_bench/worker"

Ractorbench::Harness::RactorCompat.silence_experimental_warning
ENV["RUBY_BENCH_RACTOR_HARNESS"] = "1"
GC.auto_compact = true if ENV["RUBY_GC_AUTO_COMPACT"] && GC.respond_to?(:auto_compact=)
Random.srand(1337)
Ractorbench::Harness::RubyBench::Script.harness_loaded!

def run_benchmark(num_itrs_hint = nil, ractor_args: [], **_options, &block)
  Ractorbench::Harness::RubyBench::Script.capture(block, ractor_args, num_itrs_hint)
end

def make_shareable(obj, copy: false)
  Ractorbench::Harness::RactorCompat.available? ? Ractor.make_shareable(obj, copy: copy) : obj
end

def ractor_deep_dup(args) = Ractorbench::Harness::RubyBench::Worker.copy(args, keep_shareable: false)

def use_gemfile(extra_setup_cmd: nil) = Ractorbench::Harness::RubyBench::Gems.setup(extra_setup_cmd)

# So that a block whose self is main can be made shareable, as ruby-bench's
# Ractor harness does for every model here alike (a benchmark sees the same
# main object whichever model runs it).
Ractor.make_shareable(self) if Ractorbench::Harness::RactorCompat.available?
