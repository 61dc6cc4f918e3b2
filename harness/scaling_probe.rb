# frozen_string_literal: true

# Does this Ruby run ractors in parallel when they share nothing? Spins a loop
# that shares and allocates nothing, first in 1 ractor, then in W at once
# (W from the spec, default 2), and answers with one record
# with the CPU time per iteration of each. On a Ruby whose VM serialises
# ractors (Ruby 3.3/3.4 built with YJIT or RJIT count every instruction in one
# global counter, a cache line all cores fight over) W ractors cost several
# times more CPU per iteration than one; on one that does not, about the same.
# Takes a few tenths of a second at most: one calibration, two timed rounds.
require_relative "ractorbench/harness/program_start"
require_relative "ractorbench/harness/channel"

module Ractorbench
  module ScalingProbe
    # CPU time the 1-ractor round aims at: long enough to dwarf starting a
    # ractor, short enough that the whole probe stays well under a second
    # even where W ractors run three times slower.
    TARGET_SECONDS = 0.06

    module_function

    def spin(n)
      i = 0
      i += 1 while i < n
      i
    end

    def cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)

    def wall = Process.clock_gettime(Process::CLOCK_MONOTONIC)

    # Iterations that take about TARGET_SECONDS on the main ractor.
    def calibrate
      n = 100_000
      loop do
        started = cpu
        spin(n)
        spent = cpu - started
        return (n * TARGET_SECONDS / spent).ceil if spent >= 0.01

        n *= 4
      end
    end

    def value(ractor)
      Ractor.method_defined?(:value) ? ractor.value : ractor.take
    end

    # CPU and wall seconds per iteration with `count` ractors spinning n each.
    def round(count, n)
      cpu_before = cpu
      wall_before = wall
      ractors = Array.new(count) { Ractor.new(n) { |iterations| ScalingProbe.spin(iterations) } }
      ractors.each { |r| value(r) }
      iterations = count * n
      [(cpu - cpu_before) / iterations, (wall - wall_before) / iterations]
    end

    # A round is a few hundredths of a second, so one slow start (a native
    # thread made for the first ractor, a page fault, a tick of another
    # program) weighs on it: the fastest of ROUNDS is what the VM allows.
    ROUNDS = 3

    def best_round(count, n) = Array.new(ROUNDS) { round(count, n) }.min_by(&:last)

    def call(workers)
      return {"ractor_scaling" => nil, "reason" => "this Ruby has no Ractor"} unless Object.const_defined?(:Ractor) && Ractor.respond_to?(:new)

      Warning[:experimental] = false if Warning.respond_to?(:[]=)
      n = calibrate
      one_cpu, one_wall = best_round(1, n)
      many_cpu, many_wall = best_round(workers, n)
      {
        "ractor_scaling" => {
          "workers" => workers,
          "iterations" => n,
          "cpu_ns_per_iteration_1" => (one_cpu * 1e9).round(3),
          "cpu_ns_per_iteration_w" => (many_cpu * 1e9).round(3),
          # CPU per iteration of W ractors over 1: ~1 when they scale, several when the VM serialises them.
          "cpu_ratio" => (many_cpu / one_cpu).round(3),
          # Wall time per iteration of 1 ractor over W: ~W when they run in parallel on free cores.
          "wall_speedup" => (one_wall / many_wall).round(3),
          "rounds" => ROUNDS
        }
      }
    end
  end
end

# Started by the driver's one launcher: W comes as the spec on stdin, the
# answer goes back on the result channel.
workers = Integer((Ractorbench::Harness::Channel.spec || {}).fetch("workers", 2), exception: false)
abort "scaling_probe.rb: W must be a positive integer" unless workers&.positive?
Ractorbench::Harness::Channel.write(Ractorbench::ScalingProbe.call(workers))
