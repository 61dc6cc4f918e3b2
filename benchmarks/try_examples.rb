# frozen_string_literal: true

# `ractorbench try` on each example under examples/, as a user runs it
# (default sweep and repetitions unless REPS / WORKERS are set): how long
# the check and the whole sweep take, and what each model reached, with the
# recommendation. Prints Markdown; figures from one run, on this machine.
require "open3"
require "rbconfig"
require "tmpdir"
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "ractorbench"
require "ractorbench/store"
require "ractorbench/analysis/sweep"

root = File.expand_path("..", __dir__)
exe = File.join(root, "exe", "ractorbench")
examples = ENV.fetch("EXAMPLES", "json_parse,string_crunch,slow_service,unsafe_cache").split(",")
extra = []
extra += ["--reps", ENV["REPS"]] if ENV["REPS"]
extra += ["--workers", ENV["WORKERS"]] if ENV["WORKERS"]

def timed
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  result = yield
  [result, Process.clock_gettime(Process::CLOCK_MONOTONIC) - started]
end

puts "ruby: #{RUBY_DESCRIPTION}; load average before: #{File.read("/proc/loadavg").split.first(3).join(" ")}"
puts "command: ractorbench try examples/NAME.rb #{extra.join(" ")}".rstrip, ""
puts "| example | items | check s | sweep s | runs | best speedup per model (W, n, 95% CI) | recommendation |"
puts "|---|---:|---:|---:|---:|---|---|"
Dir.mktmpdir do |dir|
  examples.each do |name|
    file = "examples/#{name}.rb"
    (_, check_status), check_s = timed { Open3.capture2e(RbConfig.ruby, exe, "try", file, "--check", chdir: root) }
    results = File.join(dir, "#{name}.jsonl")
    (out, status), sweep_s = timed { Open3.capture2e(RbConfig.ruby, exe, "try", file, "-o", results, *extra, chdir: root) }
    abort("#{name}: try exited #{status.exitstatus}:\n#{out}") if status.exitstatus == 2

    contents = Ractorbench::Store.read(results)
    panel = Ractorbench::Analysis::Sweep.panels(Ractorbench::Analysis.new(contents), min_counts: 1).first
    best = panel.series.map do |s|
      p = s.best
      next "#{s.model} -" unless p

      ci = p.low ? format(" [%.2f, %.2f]", p.low, p.high) : ""
      format("%s %.2f× (W=%d, n=%d%s)", s.model, p.speedup, p.workers, p.samples, ci)
    end
    recommendation = out[/^Recommendation: (.*)$/, 1] || "(none: #{out[/^INCOMPLETE.*$/] || "see output"})"
    puts "| #{name} | #{contents.header.try&.dig("items")} | #{format("%.2f", check_s)} (exit #{check_status.exitstatus}) | " \
      "#{format("%.1f", sweep_s)} | #{contents.runs.size} | #{best.join("; ")} | #{recommendation} |"
  end
end
puts "", "load average after: #{File.read("/proc/loadavg").split.first(3).join(" ")}"
