# frozen_string_literal: true

# `report` on a big results file (issue 11): RUNS runs (default 1,000,000)
# over CONFIGS configurations, written as a collection writes them, then
# `ractorbench report` in each FORMATS (default text and html) as a user
# runs it, timed with GNU time: wall seconds and peak memory. The goal is
# under 10 s and 300 MB for a million runs. FILE=path keeps (or reuses) the
# generated file. RACTORBENCH_READERS=1 makes report read the file in one
# process (by default a big file is read by one forked reader per usable core;
# GNU time's peak is then the largest of those processes, not their sum).
# DISTURBED=0.03 marks that share of the runs disturbed (steal during the run),
# as a busy machine leaves them: configurations then keep fewer runs than their
# repetitions, and below 100 a side a speedup's interval is resampled.
require "json"
require "tmpdir"
require "fileutils"

runs = Integer(ENV.fetch("RUNS", "1000000"))
configs = Integer(ENV.fetch("CONFIGS", "1000"))
formats = ENV.fetch("FORMATS", "text,html").split(",")
root = File.expand_path("..", __dir__)
dir = Dir.mktmpdir
path = ENV["FILE"] || File.join(dir, "big.jsonl")
models = %w[serial threads processes ractors ractors-pipeless]

unless File.exist?(path)
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  arms = Array.new(configs) { |i| ["w#{i / (4 * models.size)}", models[i % models.size], 2**(i / models.size % 4), 100] }
  header = {"type" => "header", "tool" => "ractorbench", "version" => "0", "command" => "benchmarks/big_report.rb",
            "created_at" => "2026-01-01T00:00:00Z", "seed" => 1, "timeout" => 600.0,
            "machine" => {"cpu_model" => "synthetic", "cores" => 4, "usable_cores" => 4, "load_average" => [0.1, 0.1, 0.1]},
            "rubies" => [{"name" => "ruby", "argv" => ["ruby"], "env" => {}, "info" => {"description" => "ruby 3.1.2"}}],
            "load" => [], "plan" => {"seed" => 1, "runs" => []}}
  rng = Random.new(1)
  disturbed = Float(ENV.fetch("DISTURBED", "0"))
  marks = Random.new(2)
  File.open(path, "w") do |f|
    f.puts(JSON.generate(header))
    runs.times do |i|
      workload, model, workers, messages = arms[i % configs]
      rep = i / configs + 1
      t = (0.01 * (models.index(model) + 1) * (1 + rng.rand / 10)).round(7)
      busy = disturbed.positive? && marks.rand < disturbed
      f.puts(JSON.generate({"type" => "run", "id" => "#{workload}/#{model}/w#{workers}/m#{messages}/ruby/rep#{rep}",
        "seq" => i + 1, "started_at" => "2026-01-01T00:00:00.000Z", "load_average_1m" => 0.1, "workload" => workload,
        "model" => model, "workers" => workers, "messages" => messages, "params" => {}, "ruby" => "ruby", "rep" => rep,
        "whole_time" => t + 0.05, "messages_time" => t, "digest" => "same-#{workload}", "results" => workers * messages,
        "peak_rss_kb" => 14_000, "gc_count" => 0, "status" => "ok", "user" => t, "system" => 0.001,
        "settings" => {"yjit" => "off"}, "others_cpu" => 0.0, "steal" => busy ? 0.5 * t : 0.0, "disturbed" => busy}))
    end
  end
  puts format("generated %s: %d runs, %d configurations, %.0f MB in %.0f s", path, runs, configs,
    File.size(path) / 1e6, Process.clock_gettime(Process::CLOCK_MONOTONIC) - started)
end

readers = ENV["RACTORBENCH_READERS"] ? "RACTORBENCH_READERS=#{ENV["RACTORBENCH_READERS"]}" : "readers: one per usable core"
puts "load average #{File.read("/proc/loadavg").split.first(3).join(" ")}; #{File.size(path) / 1_000_000} MB file; #{readers}"
formats.each do |format|
  out = File.join(dir, "report.#{format}")
  FileUtils.rm_f(out)
  times = File.join(dir, "time")
  ok = system("/usr/bin/time", "-o", times, "-f", "%e %M %U %S", RbConfig.ruby, File.join(root, "exe", "ractorbench"),
    "report", path, "--format", format, "-o", out, out: File::NULL)
  wall, peak_kb, user, sys = File.read(times).split.last(4).map(&:to_f)
  puts format("report --format %-5s %6.1f s wall, %5.1f s CPU, peak %6.0f MB%s", format, wall, user + sys, peak_kb / 1024,
    ok ? "" : "  (exit #{$?.exitstatus})")
end
FileUtils.rm_rf(dir) unless ENV["FILE"]
