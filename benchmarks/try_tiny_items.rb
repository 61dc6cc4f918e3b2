# frozen_string_literal: true

# `ractorbench try` on ITEMS (default 500,000) tiny items (issue 14): per run,
# the measured part (the models' own span) against the rest of the run (start,
# building the items, checking and digesting the results), and the same for
# the whole sweep. The goal: the rest under a tenth of the measured time.
require "json"
require "tmpdir"

items = Integer(ENV.fetch("ITEMS", "500000"))
models = ENV.fetch("MODELS", "threads,ractors,processes")
root = File.expand_path("..", __dir__)
Dir.mktmpdir do |dir|
  out = File.join(dir, "tiny.jsonl")
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  system(RbConfig.ruby, File.join(root, "exe", "ractorbench"), "try", File.join(__dir__, "fixtures", "tiny_items.rb"),
    "--items", items.to_s, "--workers", "2", "--reps", ENV.fetch("REPS", "3"), "--models", models, "-o", out,
    out: File::NULL, exception: true)
  wall = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
  runs = File.readlines(out).map { |l| JSON.parse(l) }.select { |r| r["type"] == "run" && r["status"] == "ok" }
  puts "load average #{File.read("/proc/loadavg").split.first(3).join(" ")}; #{items} items; sweep #{wall.round(1)} s wall"
  puts "per run, seconds (median): measured = the models' own span; start = Ruby's boot and the launch, until the"
  puts "child's first line; setup = loading the file and model, building the items; finish = ending the run, checking"
  puts "and digesting the results and writing the record (ours: what grows with the items besides the work)"
  puts "model       W    n   measured      start      setup     finish  finish/measured  (start+setup+finish)/measured"
  median = ->(values) { values.sort[values.size / 2] }
  runs.group_by { |r| [r["model"], r["workers"]] }.sort.each do |(model, workers), group|
    measured = median.call(group.map { |r| r["messages_time"] })
    setup = median.call(group.map { |r| r["setup_time"].to_f })
    finish = median.call(group.map { |r| r["finish_time"].to_f })
    start = median.call(group.map { |r| r["whole_time"] - r["messages_time"] - r["setup_time"].to_f - r["finish_time"].to_f })
    puts format("%-10s %2d %4d %10.3f %10.3f %10.3f %10.3f %16.2f %30.2f", model, workers, group.size, measured, start, setup, finish,
      finish / measured, (start + setup + finish) / measured)
  end
  measured = runs.sum { |r| r["messages_time"] }
  finish = runs.sum { |r| r["finish_time"].to_f }
  rest = runs.sum { |r| r["whole_time"] - r["messages_time"] }
  puts format("all runs: measured %.1f s; finish %.2f s (%.2f of measured); everything outside the measured part %.1f s (%.2f); the sweep's own time outside the runs %.1f s",
    measured, finish, finish / measured, rest, rest / measured, wall - runs.sum { |r| r["whole_time"] })
end
