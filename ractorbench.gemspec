# frozen_string_literal: true

require_relative "lib/ractorbench/base/version"

Gem::Specification.new do |spec|
  spec.name = "ractorbench"
  spec.version = Ractorbench::VERSION
  spec.authors = ["ractorbench developers"]
  spec.summary = "Which of Ruby's concurrency models - Ractors, threads, processes, fibers - makes this code faster, here?"
  spec.description = "Reproduces the public Ractor/thread/fork/fiber benchmarks in one command each, runs your own " \
    "workload the same way, and reports every figure with its sample count and spread."
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.1"
  # What the README shows ships: the examples and their recorded results,
  # and the reference in docs/ it points to (test/packaging_test.rb builds
  # the gem and checks).
  spec.files = Dir["lib/**/*", "harness/**/*", "exe/*", "README.md", "LICENSE", "docs/**/*", "examples/**/*"]
    .select { |f| File.file?(f) }
  spec.bindir = "exe"
  spec.executables = ["ractorbench"]
  spec.require_paths = ["lib"]

  # 2.24.0 still claims Ruby 3.1 but calls IO#timeout (Ruby >= 3.2) on every IO wait; 2.25+ require 3.2.
  spec.add_dependency "async", ">= 2.6", "!= 2.24.0" # the fibers model's Fiber::Scheduler
  spec.add_dependency "csv", ">= 3.1" # report --format csv; a bundled gem (not a default one) since Ruby 3.4
  spec.add_dependency "fiddle", ">= 1.0" # prctl: the collector a child subreaper while a run runs; a bundled gem since Ruby 4.0
  spec.add_dependency "prime", ">= 0.1" # a bundled gem since 3.1: the prime workload's Integer#prime?
  spec.add_dependency "ruby-progressbar", "~> 1.13"
end
