# frozen_string_literal: true

# The harness's own cost per run: whole-process minus messages-only time of
# an empty workload, next to `ruby -e 0` measured in the same loop (the two
# alternate, so machine drift falls on both alike).
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "ractorbench"
require "ractorbench/plan/catalog"
require "ractorbench/measure/runner"
require "ractorbench/plan/run_spec"
require "ractorbench/rubies/target"
require "ractorbench/stats/descriptive"

samples = Integer(ENV.fetch("SAMPLES", "30"))
target = Ractorbench::Rubies::Target.current.probe!
runner = Ractorbench::Measure::Runner.new(catalog: Ractorbench::Plan::Catalog.default, timeout: 60)
spec = Ractorbench::Plan::RunSpec.new(workload: "noop", model: "serial", workers: 1, messages: 1, params: {}, ruby: target.name, rep: 1)
env = Ractorbench::Measure::ChildEnvironment.for(target)

bare = []
overhead = []
whole = []
samples.times do
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  system(env, *target.argv, "-e", "0", unsetenv_others: true) or abort("ruby -e 0 failed")
  bare << Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
  record = runner.call(spec, target)
  abort("harness run failed: #{record["reason"]}") unless record["status"] == "ok"
  whole << record["whole_time"]
  overhead << record["whole_time"] - record["messages_time"]
end

ms = ->(s) { format("%7.2f ms", s * 1000) }
row = lambda do |label, values|
  s = Ractorbench::Stats::Descriptive.new(values)
  puts format("%-46s median %s  sd %s  min %s  (n=%d)", label, ms[s.median], ms[s.stddev], ms[s.min], s.n)
  s
end
puts "ruby: #{target.info["description"]}"
b = row.call("ruby -e 0 (spawn to reap)", bare)
row.call("ractorbench child, whole-process", whole)
o = row.call("harness overhead (whole - messages-only)", overhead)
diff = o.median - b.median
puts format("overhead beyond ruby -e 0: %s (target: within 20 ms) -> %s", ms[diff], (diff.abs <= 0.020) ? "OK" : "OVER")
