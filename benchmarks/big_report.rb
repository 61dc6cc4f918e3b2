# frozen_string_literal: true

# `report` on a big results file shaped like a real collection's, against a
# plain read of the same file in one process, in one sitting.
#
# The runs come from a real `ractorbench run` (several workloads and models,
# W=1,2, each Ruby of /opt/rubies beside this one, a workload that raises and
# a model no Ruby supports), made once and kept in tmp/big_report/; RealRuns
# multiplies its lines into RUNS lines (default 1,000,000) over about CONFIGS
# configurations (default 1000), every field kept and every measured number
# varying, DISTURBED (0.03) of them disturbed and FAILED (0.02) failed; its
# header records the plan as a collection does (LISTED=1: every planned run
# listed, as files written before the recipe have it). The file is kept in
# tmp/big_report/ too (FILE=path to choose it; a file that exists is reused
# as it is).
#
# Then, one after another: the floor (big_report/floor.rb: one process that
# parses each line and keeps the fields the store keeps, digests checked as
# they come, failed and disturbed runs by offset; once, for reference, the
# same keeping only the numbers), and `ractorbench report
# FILE` as a user runs it (FORMATS=html,... adds other formats): wall and CPU
# seconds, the largest process's peak memory (GNU time) and the peak of the
# whole process tree's (every process's share of memory, Pss, summed, sampled
# every 20 ms in a run of its own, so that the sampling does not slow the
# timed one), and report / floor. The goal: within 1.5x the floor and under
# 300 MB, on Ruby 3.1 and 4.0. ROUNDS (3) rounds of floor then report, each
# ratio taken within its round; BEFORE=dir times another checkout's report
# beside this one's.
require "json"
require "fileutils"
require "rbconfig"
require_relative "big_report/real_runs"

root = File.expand_path("..", __dir__)
cache = File.join(root, "tmp", "big_report")
FileUtils.mkdir_p(cache)
runs = Integer(ENV.fetch("RUNS", "1000000"))
configs = Integer(ENV.fetch("CONFIGS", "1000"))
disturbed = Float(ENV.fetch("DISTURBED", "0.03"))
failed = Float(ENV.fetch("FAILED", "0.02"))
formats = [nil] + ENV.fetch("FORMATS", "").split(",")
exe = File.join(root, "exe", "ractorbench")
clock = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }

collection = File.join(cache, "collection.jsonl")
unless File.exist?(collection)
  fixtures = File.join(root, "test", "fixtures")
  rubies = Dir["/opt/rubies/*/bin/ruby"].sort.first(2).flat_map { |ruby| ["--ruby", "#{ruby.split("/")[-3]}=#{ruby}"] }
  argv = [RbConfig.ruby, exe, "run", "-w", "prime,fib,noop,raiser", "-m", "serial,threads,processes,ractors,teleport",
    "--workers", "1,2", "--messages", "20", "--param", "n=15", "--reps", "2", "--ruby", "ruby", *rubies,
    "--load", File.join(fixtures, "failing_workloads.rb"), "--load", File.join(fixtures, "unsupported_model.rb"),
    "-o", collection]
  puts "collecting the real runs to multiply: #{argv.drop(2).join(" ")}"
  system(*argv, out: File::NULL, err: File.join(cache, "collection.log")) # exit 1: the raiser's runs failed, as planned
  abort "big_report: the collection did not finish (#{collection})" unless File.exist?(collection)
end

listed = ENV["LISTED"] == "1"
path = ENV["FILE"] || File.join(cache, "runs-#{runs}-#{configs}-#{disturbed}-#{failed}#{"-listed" if listed}.jsonl")
unless File.exist?(path)
  started = clock.call
  real = RealRuns.new(File.readlines(collection), runs: runs, configurations: configs, disturbed: disturbed, failed: failed, listed: listed)
  real.write("#{path}.part")
  File.rename("#{path}.part", path)
  puts format("generated %s: %d configurations x up to %d reps in %.0f s", path, real.configurations, real.reps,
    clock.call - started)
end

# The peak, over the life of pid and its descendants, of their memory
# summed (kB), sampled: each process's proportional share (Pss), so that
# pages a forked process (a report's rows) shares with its parent count once.
tree_rss = lambda do |pid|
  rss = ->(p) { File.read("/proc/#{p}/smaps_rollup")[/^Pss:\s+(\d+)/, 1].to_i }
  children = ->(p) { Dir["/proc/#{p}/task/*/children"].flat_map { |f| File.read(f).split.map(&:to_i) } }
  tree = ->(p) { [p] + children.call(p).flat_map { |c| tree.call(c) } }
  peak = 0
  sampler = Thread.new do
    loop do
      peak = [peak, tree.call(pid).sum { |p| rss.call(p) }].max
    rescue SystemCallError
      nil # a process ended between the listing and the reading
    ensure
      sleep 0.02
    end
  end
  -> { sampler.kill.join && peak }
end

# Runs argv under GNU time: [wall s, CPU s, largest process's peak kB, status].
timed = lambda do |argv, &while_running|
  times = File.join(cache, "time")
  pid = spawn("/usr/bin/time", "-o", times, "-f", "%e %U %S %M", *argv, out: File::NULL)
  peak = while_running&.call(pid)
  _, status = Process.wait2(pid)
  wall, user, sys, largest = File.read(times).split.last(4).map(&:to_f)
  [wall, user + sys, largest, peak&.call, status]
end

# The tree's memory peak of argv, in a run of its own: the sampler reads
# every process's smaps_rollup 50 times a second, which would slow the very
# thing the timed runs measure.
tree_peak = ->(argv) { timed.call(argv) { |pid| tree_rss.call(pid) }[3] }

lines = File.foreach(path).count - 1
header = File.open(path, &:gets).bytesize
rounds = Integer(ENV.fetch("ROUNDS", "3"))
puts format("RUNS=%d: %d run lines, file %.0f MB (header %.3f MB); Ruby %s; load average %s",
  runs, lines, File.size(path) / 1e6, header / 1e6, RUBY_VERSION, File.read("/proc/loadavg").split.first(3).join(" "))
show = lambda do |what, (wall, cpu, largest, _, status), tree = nil|
  puts format("%-34s %6.2f s wall, %6.2f s CPU, peak %5.0f MB largest process%s%s", what, wall, cpu, largest / 1024,
    tree ? format(", %5.0f MB whole tree", tree / 1024) : "", status.success? ? "" : "  (exit #{status.exitstatus})")
  wall
end
floor_argv = [RbConfig.ruby, File.join(__dir__, "big_report", "floor.rb"), path]
show.call("floor: plain read, 1 process", timed.call(floor_argv), tree_peak.call(floor_argv))
# For reference: a plain read that keeps only the numbers (the issue's reader).
figures_argv = floor_argv + ["figures"]
show.call("plain read of the figures only", timed.call(figures_argv), tree_peak.call(figures_argv))
# The machine's speed drifts by a third over minutes (a shared host): each
# round times the floor and then each report, and a ratio is taken within a
# round; the answer is their median, with the rounds' range.
ratios = Hash.new { |h, k| h[k] = [] }
# BEFORE=dir: the same reports by another checkout's ractorbench (the code
# before a change), in the same rounds.
trees = {"" => exe}
trees[" (#{File.basename(ENV["BEFORE"])})"] = File.join(ENV["BEFORE"], "exe", "ractorbench") if ENV["BEFORE"]
reports = formats.product(trees.to_a).map do |format, (tree, command)|
  out = File.join(cache, "report#{tree.delete("^a-z0-9")}.#{format || "default"}")
  ["report#{format && " --format #{format}"}#{tree}",
    [RbConfig.ruby, command, "report", path, *(format ? ["--format", format] : []), "-o", out, "--force"]]
end
rounds.times do |round|
  floor = show.call("round #{round + 1}: floor", timed.call(floor_argv))
  reports.each do |what, argv|
    wall = show.call("round #{round + 1}: #{what}", timed.call(argv))
    ratios[what] << wall / floor
    puts format("  report / floor: %.2f", wall / floor)
  end
end
reports.each do |what, argv|
  sorted = ratios[what].sort
  median = sorted[sorted.size / 2]
  median = (sorted[sorted.size / 2 - 1] + median) / 2 if sorted.size.even?
  show.call("#{what}, memory", timed.call(argv), tree_peak.call(argv))
  puts format("%s / floor: median %.2f of %d rounds, from %.2f to %.2f", what, median, sorted.size, sorted.first, sorted.last)
end
puts "load average after: #{File.read("/proc/loadavg").split.first(3).join(" ")}"
