# frozen_string_literal: true

# How well `compare` separates a real 20% slowdown from no change, on this
# machine now: each round collects the nap fixture three times (before, after
# a planted 20% slowdown, before again), then compares before/after and
# before/before. Prints every verdict and the detection and false-alarm
# counts. ROUNDS=3 REPS=8 by default; each collection takes a few seconds.
require "json"
require "open3"
require "tmpdir"

ROOT = File.expand_path("..", __dir__)
EXE = File.join(ROOT, "exe", "ractorbench")
FIXTURES = File.join(ROOT, "test", "fixtures")
rounds = Integer(ENV.fetch("ROUNDS", "3"))
reps = ENV.fetch("REPS", "8")

def ractorbench(*args)
  out, err, status = Open3.capture3(RbConfig.ruby, EXE, *args)
  abort("ractorbench #{args.join(" ")} failed:\n#{err}") unless status.exitstatus <= 1
  out
end

def collect(dir, name, fixture, reps)
  path = File.join(dir, "#{name}.jsonl")
  ractorbench("run", "--load", File.join(FIXTURES, fixture), "-w", "nap", "-m", "serial,threads", "--workers", "2",
    "--messages", "5", "--reps", reps, "-o", path)
  path
end

def rows(a, b)
  JSON.parse(ractorbench("compare", a, b, "--format", "json"))["against"].first["rows"]
end

puts "load average at start: #{File.read("/proc/loadavg").split.first(3).join(" ")}"
detected = alarms = total = 0
changes = []
Dir.mktmpdir do |dir|
  rounds.times do |round|
    before = collect(dir, "before-#{round}", "nap_before.rb", reps)
    after = collect(dir, "after-#{round}", "nap_after.rb", reps)
    again = collect(dir, "again-#{round}", "nap_before.rb", reps)
    rows(before, after).each do |r|
      total += 1
      detected += 1 if r["verdict"] == "slower"
      changes << r["change"]
      puts format("round %d  20%% slower  %-8s change %+6.1f%%  [%+6.1f%%, %+6.1f%%]  Holm p %.4f  -> %s", round + 1, r["key"][1],
        r["change"] * 100, (r["ratio_ci"]["low"].to_f - 1) * 100, (r["ratio_ci"]["high"].to_f - 1) * 100, r["p_holm"], r["verdict"])
    end
    rows(before, again).each do |r|
      alarms += 1 unless r["verdict"] == "same"
      puts format("round %d  no change   %-8s change %+6.1f%%  [%+6.1f%%, %+6.1f%%]  Holm p %.4f  -> %s", round + 1, r["key"][1],
        r["change"] * 100, (r["ratio_ci"]["low"].to_f - 1) * 100, (r["ratio_ci"]["high"].to_f - 1) * 100, r["p_holm"], r["verdict"])
    end
  end
end
median = changes.sort[changes.size / 2]
puts format("planted +20%%: detected %d/%d, median estimate %+.1f%%; no change: %d/%d false alarms (REPS=%s a side)",
  detected, total, median * 100, alarms, total, reps)
puts "load average at end: #{File.read("/proc/loadavg").split.first(3).join(" ")}"
