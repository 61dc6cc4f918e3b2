# frozen_string_literal: true

# Issue 22's fair fight: `ractorbench try` on three workloads (fine-grained
# modular exponentiation, JSON.generate of small orders, coarse tarai), and
# the same items split statically by hand outside the tool in two ractors
# and two forked processes (benchmarks/fixtures/hand_split.rb, one arm a
# fresh process, arms alternated). Prints, for serial and each family, the
# median time of try's best shape at W=2 next to the hand-written arm's,
# with n and spread, and their ratio (within 10% is a fair fight); then the
# speedups each side measures over its own serial. Usage (REPS=6, RUBY=path to the Ruby under test):
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
require "ractorbench/stats/descriptive"

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
    try = analysis.header.try
    panel = Ractorbench::Analysis::Sweep.panels(analysis, min_counts: 1).first
    disturbed = analysis.runs.count { |r| r["disturbed"] }
    puts "  #{try["module"]}: #{try["items"]} items, #{format("%.1f", try.dig("preflight", "seconds_per_item") * 1e6)} µs an item; " \
      "#{disturbed} of #{analysis.runs.size} runs disturbed by other programs"
    hand = hand_split(file, try["module"], try["items"])
    # Absolute times, not speedups over two different serial baselines:
    # try's span (items in, results out, workers made inside it) against
    # the hand-written arm's, same items, same Ruby.
    serial = panel.baseline.first
    line("serial", "serial", serial&.time, hand["serial"]) if serial
    FAMILIES.each do |family, arm|
      series, point = best(panel, family)
      next puts("  #{family}: no successful run under try") unless point

      interval = point.low ? format(" [%.2f, %.2f]", point.low, point.high) : ""
      line(family, series.model, point.time, hand[arm])
      puts format("  %-8s speedups over each side's own serial: try %.2f×%s   by hand %.2f×", "", point.speedup, interval,
        hand["serial"].median / hand[arm].median)
    end
    threads = best(panel, "thread")
    puts format("  thread   try best %-16s %.2f× n=%d", threads[0].model, threads[1].speedup, threads[1].samples) if threads&.last
  end

  def line(family, model, mine, theirs)
    puts format("  %-8s try %-16s %s   by hand %s   try/hand time %.2f", family, model, seconds(mine), seconds(theirs),
      mine.median / theirs.median)
  end

  # A median time with its n and spread (sd / mean).
  def seconds(summary)
    format("%8.2f ms (n=%d, ±%.0f%%)", summary.median * 1e3, summary.n, summary.stddev.to_f / summary.mean * 100)
  end

  # The family's fastest point at W=2, and its series.
  def best(panel, family)
    panel.series.select { |s| s.family == family }.flat_map { |s| s.points.select { |p| p.workers == 2 && p.speedup }.map { |p| [s, p] } }
      .max_by { |_, p| p.speedup }
  end

  # Each arm REPS times, alternated, each in a fresh process: each arm's
  # times summarised.
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
    times.transform_values { |list| Ractorbench::Stats::Descriptive.new(list) }
  end
end

FairFight.run(ARGV)
