# frozen_string_literal: true

# What the statistics cost: the time to render each report format and a
# compare for a large synthesized results file (CONFIGS configurations x
# REPS runs; defaults 200 x 10), bootstrap intervals included.
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__), File.expand_path("../test", __dir__))
require "ractorbench"
require "ractorbench/store"
require "ractorbench/analysis"
require "ractorbench/reports"
require "ractorbench/analysis/comparison"
require "ractorbench/analysis/comparison/sides"
require "synthetic_results"
require "tmpdir"

configs = Integer(ENV.fetch("CONFIGS", "200"))
reps = Integer(ENV.fetch("REPS", "10"))
models = %w[serial threads ractors ractors-pipeless processes]
samples = {}
(configs / models.size).times do |i|
  models.each_with_index do |m, j|
    samples[["w#{i / 4}", m, 2**(i % 4), 100, "ruby"]] = SyntheticResults.draws(reps, median: 0.01 * (j + 1), seed: i * 10 + j)
  end
end
now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
Dir.mktmpdir do |dir|
  a = SyntheticResults.write(File.join(dir, "a.jsonl"), samples)
  b = SyntheticResults.write(File.join(dir, "b.jsonl"), samples.to_h { |k, v| [k, v.map { |t| t * 1.05 }] })
  puts "#{samples.size} configurations x #{reps} runs; load average #{File.read("/proc/loadavg").split.first(3).join(" ")}"
  %w[text markdown json csv html].each do |format|
    started = now.call
    Ractorbench::Reports.fetch(format).render(Ractorbench::Analysis.new(Ractorbench::Store.read(a)))
    puts format("report --format %-8s %6.2f s", format, now.call - started)
  end
  started = now.call
  built = Ractorbench::Analysis::Comparison::Sides.files([a, b], first_run: "auto", err: $stderr)
  comparison = Ractorbench::Analysis::Comparison.new(baseline: built.baseline, others: built.others, metric: "messages_time",
    alpha: 0.05, key_fields: built.key_fields)
  puts format("compare (%d rows)        %6.2f s   %d of %d read as slower", comparison.rows.size, now.call - started,
    comparison.rows.count { |r| r.verdict == :slower }, comparison.rows.size)
end
