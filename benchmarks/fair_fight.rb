# frozen_string_literal: true

# Issue 22's fair fight: `ractorbench try` on three workloads (fine-grained
# modular exponentiation, JSON.generate of small orders, coarse tarai), and
# the same items split statically by hand outside the tool in two ractors
# and two forked processes (benchmarks/fixtures/hand_split.rb, one arm a
# fresh process, arms alternated). Prints, for each family, try's best shape
# at W=2 next to the hand-written split, as speedups over serial measured
# the same way (try's own serial; the hand-written serial arm), with n and
# spread, and their ratio. Usage (REPS=6, RUBY=path to the Ruby under test):
#   ruby benchmarks/fair_fight.rb [modexp json_generate tarai]
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "json"
require "open3"
require "rbconfig"
require "tmpdir"
require "ractorbench"
require "ractorbench/store"
require "ractorbench/analysis"
require "ractorbench/analysis/sweep"
require "ractorbench/measure/child_environment"
require "ractorbench/stats/summary"

module FairFight
  EXE = File.expand_path("../exe/ractorbench", __dir__)
  FIXTURES = File.expand_path("fixtures/fair_fight", __dir__)
  HAND = File.expand_path("fixtures/hand_split.rb", __dir__)
  REPS = Integer(ENV.fetch("REPS", "6"))
  RUBY = ENV.fetch("RUBY", RbConfig.ruby)
  FAMILIES = {"ractor" => "ractors", "process" => "fork"}.freeze

  module_function

  def run(names)
    names = Dir[File.join(FIXTURES, "*.rb")].map { |f| File.basename(f, ".rb") }.sort if names.empty?
    puts "Ruby under test: #{RUBY}; #{REPS} runs a point; load #{File.read("/proc/loadavg").split.first(3).join(" ")} before"
    names.each { |name| workload(name) }
    puts "load #{File.read("/proc/loadavg").split.first(3).join(" ")} after"
  end

  def workload(name)
    file = File.join(FIXTURES, "#{name}.rb")
    out = File.join(Dir.tmpdir, "ractorbench-fair-fight-#{name}-#{Process.pid}.jsonl")
    command = [EXE, "try", file, "--workers", "2", "--reps", REPS.to_s, "--ruby", RUBY, "-o", out, "--force"]
    puts "\n$ ractorbench #{command.drop(1).join(" ")}"
    system(RbConfig.ruby, *command, out: File::NULL, err: File::NULL)
    analysis = Ractorbench::Analysis.new(Ractorbench::Store.read(out))
    try = analysis.header.fetch("try")
    panel = Ractorbench::Analysis::Sweep.panels(analysis, min_counts: 1).first
    disturbed = analysis.runs.count { |r| r["disturbed"] }
    puts "  #{try["module"]}: #{try["items"]} items, #{format("%.1f", try.dig("preflight", "seconds_per_item") * 1e6)} µs an item; " \
      "#{disturbed} of #{analysis.runs.size} runs disturbed by other programs"
    hand = hand_split(file, try["module"], try["items"])
    FAMILIES.each do |family, arm|
      series, point = best(panel, family)
      mine = hand[arm]
      next puts("  #{family}: no successful run under try") unless point

      interval = point.low ? format(" [%.2f, %.2f]", point.low, point.high) : ""
      puts format("  %-8s try best %-16s %.2f×%s n=%d   by hand (static split) %.2f× (%d runs, ±%.0f%%)   try/hand %.2f",
        family, series.model, point.speedup, interval, point.samples, mine[:speedup], mine[:n], mine[:spread] * 100,
        point.speedup / mine[:speedup])
    end
    threads = best(panel, "thread")
    puts format("  thread   try best %-16s %.2f× n=%d", threads[0].model, threads[1].speedup, threads[1].samples) if threads&.last
  end

  # The family's fastest point at W=2, and its series.
  def best(panel, family)
    panel.series.select { |s| s.family == family }.flat_map { |s| s.points.select { |p| p.workers == 2 && p.speedup }.map { |p| [s, p] } }
      .max_by { |_, p| p.speedup }
  end

  # Each arm REPS times, alternated, each in a fresh process: speedup of the
  # median over serial's median, and the arm's spread (sd / mean).
  def hand_split(file, module_name, items)
    times = Hash.new { |h, k| h[k] = [] }
    REPS.times do
      %w[serial ractors fork].each do |arm|
        out, err, status = Open3.capture3(Ractorbench::Measure::ChildEnvironment.base, RUBY, HAND, file, module_name, items.to_s, arm, "2",
          unsetenv_others: true)
        raise "#{arm}: #{err}" unless status.success?

        times[arm] << Float(out)
      end
    end
    serial = Ractorbench::Stats::Summary.new(times["serial"]).median
    times.to_h do |arm, list|
      summary = Ractorbench::Stats::Summary.new(list)
      [arm, {speedup: serial / summary.median, n: list.size, spread: summary.stddev.to_f / summary.mean}]
    end
  end
end

FairFight.run(ARGV)
