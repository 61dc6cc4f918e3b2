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
  puts "model       W    n   measured s       rest s rest/measured"
  runs.group_by { |r| [r["model"], r["workers"]] }.sort.each do |(model, workers), group|
    measured = group.sum { |r| r["messages_time"] }
    rest = group.sum { |r| r["whole_time"] - r["messages_time"] }
    puts format("%-10s %2d %4d %12.2f %12.2f %12.2f", model, workers, group.size, measured / group.size, rest / group.size, rest / measured)
  end
  measured = runs.sum { |r| r["messages_time"] }
  rest = runs.sum { |r| r["whole_time"] - r["messages_time"] }
  puts format("all runs: measured %.1f s, rest %.1f s (%.2f of measured); the sweep's own time outside the runs %.1f s",
    measured, rest, rest / measured, wall - runs.sum { |r| r["whole_time"] })
end
