# frozen_string_literal: true

# How often each way of making a speedup's 95% interval covers the true
# ratio, and how wide it is, on simulated repetitions whose two sides share
# a drift of the machine (DRIFT times the runs' own spread): what decided
# where Bootstrap resamples and where it combines order statistics
# (LARGE_SAMPLE), and that paired order statistics keep the pairing.
# TRIALS=300 SIZES=30,50,99 DRIFTS=0,1,3 ruby benchmarks/interval_coverage.rb
# Not a test: it measures statistical quality, and takes a few minutes.
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "ractorbench/stats/bootstrap"

Bootstrap = Ractorbench::Stats::Bootstrap
trials = Integer(ENV.fetch("TRIALS", "300"))
sizes = ENV.fetch("SIZES", "30,50,99").split(",").map { |s| Integer(s) }
drifts = ENV.fetch("DRIFTS", "0,1,3").split(",").map { |s| Float(s) }
truth = 2.0
spread = 0.05
rng = Random.new(42)
normal = -> { Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand) }

methods = {
  "resampled pairs" => ->(x, y, label) { Bootstrap.ratio_of_medians(x, y, label: label, large_sample: Float::INFINITY) },
  "order statistics, paired" => ->(x, y, label) { Bootstrap.ratio_of_medians(x, y, label: label, large_sample: 6) },
  "resampled, independent" => ->(x, y, label) { Bootstrap.ratio_of_medians(x.values, y.values, label: label, large_sample: Float::INFINITY) },
  "order statistics, independent" => ->(x, y, label) { Bootstrap.ratio_of_medians(x.values, y.values, label: label, large_sample: 6) }
}
puts format("%d trials a cell; true ratio %.1f; runs' spread %.2f (log scale); drift shared by both sides of a repetition", trials, truth, spread)
puts "pairs drift  interval                        coverage   median width   seconds"
sizes.each do |n|
  drifts.each do |drift|
    covered = Hash.new(0)
    widths = Hash.new { |h, k| h[k] = [] }
    seconds = Hash.new(0.0)
    trials.times do |t|
      shared = Array.new(n) { drift * spread * normal.call }
      slow = (1..n).to_h { |rep| [rep, truth * Math.exp(shared[rep - 1] + spread * normal.call)] }
      fast = (1..n).to_h { |rep| [rep, Math.exp(shared[rep - 1] + spread * normal.call)] }
      methods.each do |name, interval|
        started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        ci = interval.call(slow, fast, "trial #{t}")
        seconds[name] += Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
        covered[name] += 1 if truth.between?(ci.low, ci.high)
        widths[name] << Math.log(ci.high / ci.low)
      end
    end
    methods.each_key do |name|
      median = widths[name].sort[trials / 2]
      puts format("%-5d %-6.0f %-30s %8.1f%% %14.4f %9.4f", n, drift, name, 100.0 * covered[name] / trials, median, seconds[name] / trials)
    end
    $stdout.flush
  end
end
