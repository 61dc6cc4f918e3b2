# frozen_string_literal: true

# The seeds' CPU and Ractor-runtime experiments (issue 3), each run through
# the real CLI and compared with the seed's own claim. Usage:
#   ruby benchmarks/cpu_experiments.rb [tarai|yjit|alloc|spawn|ring|all]
# Sizes: REPS (5), TARAI (13,4,0), FIB (32), ALLOC (2000000), UNITS (10000),
# RING_NODES (10000), RING_LAPS (5).
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "rbconfig"
require "tmpdir"
require "ractorbench"
require "ractorbench/store"
require "ractorbench/analysis"
require "ractorbench/analysis/rows"
require "ractorbench/plan/catalog"

module CpuExperiments
  EXE = File.expand_path("../exe/ractorbench", __dir__)
  REPS = ENV.fetch("REPS", "5")

  module_function

  # Runs the CLI and returns {[model, ruby, params] => row}.
  def collect(name, *args)
    out = File.join(Dir.tmpdir, "ractorbench-bench-#{name}-#{Process.pid}.jsonl")
    command = [EXE, "run", "--reps", REPS, *args, "-o", out]
    puts "$ #{command.drop(1).join(" ")}"
    system(RbConfig.ruby, *command, out: File::NULL, err: File::NULL)
    analysis = Ractorbench::Analysis.new(Ractorbench::Store.read(out))
    failed = analysis.runs.reject { |r| %w[ok unsupported].include?(r["status"]) }
    failed.each { |r| puts "  FAILED #{r["id"]}: #{r["reason"]}" }
    puts "  digests agree: #{analysis.digest_check.agree?}; results in #{out}"
    Ractorbench::Analysis::Rows.for(analysis).to_h { |r| [[r["model"], r["ruby"], r["params"]], r] }
  end

  def time(row)
    s = row["messages_time"]
    return row["unsupported"] || "no successful run" if s["samples"].to_i.zero?

    format("%.4f s ± %.4f (n=%d)", s["median"], s["stddev"] || 0, s["samples"])
  end

  def line(label, text)
    puts format("  %-28s %s", label, text)
  end

  def ratio(a, b)
    (a && b&.positive?) ? format("%.2f×", a / b) : "-"
  end

  def median(row) = row && row["messages_time"]["median"]

  def tarai
    x, y, z = ENV.fetch("TARAI", "13,4,0").split(",")
    rows = collect("tarai", "-w", "tarai", "-m", "serial,threads,processes,ractors", "--workers", "2", "--messages", "1",
      "--param", "x=#{x}", "--param", "y=#{y}", "--param", "z=#{z}")
    puts "tarai(#{x},#{y},#{z}) x 2 copies, W=2 (seed 002: 4 ractors 3.7× faster than sequential on 4+ cores)"
    rows.each_value { |r|
      line(r["model"], "#{time(r)}  speedup #{ratio(median(rows.values.find { |s| s["model"] == "serial" }), median(r))}" \
      "  CPU vs serial #{r["cpu_cost"] ? format("%.2f×", r["cpu_cost"]) : "-"}")
    }
    speedup = rows.values.find { |r| r["model"] == "ractors" }&.fetch("speedup")
    ceiling = rows.values.find { |r| r["model"] == "processes" }&.fetch("speedup")
    verdict = (speedup && speedup >= 1.8) ? "meets" : "misses"
    puts "  => ractors #{speedup ? format("%.2f×", speedup) : "-"} over serial: #{verdict} the target of 1.8× on 2 cores; " \
      "processes, the most this machine gave during the run, #{ceiling ? format("%.2f×", ceiling) : "-"}"
  end

  def yjit
    n = ENV.fetch("FIB", "32")
    rows = collect("yjit", "-w", "fib", "-m", "serial,ractors", "--workers", "2", "--messages", "1", "--param", "n=#{n}", "--yjit", "both")
    puts "fib(#{n}) x 2, without and with YJIT (seed 003: YJIT 10.6× on serial, 13× on ractors, Ruby 3.4.2 on an M1)"
    %w[serial ractors].each do |model|
      off = rows[[model, "ruby", "n=#{n}"]]
      on = rows[[model, "ruby+yjit", "n=#{n}"]]
      line("#{model}, YJIT off", time(off))
      line("#{model}, YJIT on", time(on))
      next line("  => #{model}", "no YJIT on this Ruby: #{on["unsupported"]}") if on.nil? || on["unsupported"]

      line("  => #{model} YJIT speedup", ratio(median(off), median(on)))
    end
  end

  def alloc
    iterations = ENV.fetch("ALLOC", "2000000")
    rows = collect("alloc", "-w", "alloc", "-m", "serial,ractors,processes", "--workers", "2", "--messages", "1",
      "--param", "iterations=#{iterations}")
    puts "alloc #{iterations} x 2 copies, seq vs par (seed 002: 4 ractors 2.0× slower than sequential, 4.7× the CPU)"
    rows.each_value do |r|
      line(r["model"], "#{time(r)}  speedup #{r["speedup"] ? format("%.2f×", r["speedup"]) : "-"}  " \
        "CPU vs serial #{r["cpu_cost"] ? format("%.2f×", r["cpu_cost"]) : "-"}  GC runs #{r["gc_count"]&.round || "-"}")
    end
  end

  def spawn
    units = ENV.fetch("UNITS", "10000")
    models = %w[threads ractors fibers processes] & Ractorbench::Plan::Catalog.default.models.map(&:name)
    puts "create and join #{units} units (seed 002, GC on/off: threads 22/21 µs, ractors 488/76 µs per unit, Ruby 3.3-dev 1:1)"
    %w[on off].each do |gc|
      rows = collect("spawn-#{gc}", "-w", "spawn", "-m", models.join(","), "--workers", units, "--messages", "1", "--param", "gc=#{gc}")
      rows.each_value do |r|
        per = median(r) && median(r) / Integer(units) * 1e6
        line("#{r["model"]}, GC #{gc}", "#{time(r)}  #{format("%.1f µs per unit", per) if per}")
      end
    end
  end

  def ring
    nodes = ENV.fetch("RING_NODES", "10000")
    laps = ENV.fetch("RING_LAPS", "5")
    models = %w[threads ractors fibers] & Ractorbench::Plan::Catalog.default.models.map(&:name)
    rows = collect("ring", "-w", "ring", "-m", models.join(","), "--workers", "1", "--messages", laps, "--param", "nodes=#{nodes}")
    hops = Integer(nodes) * Integer(laps)
    puts "ring of #{nodes} nodes, #{laps} laps = #{hops} hops (seed 002: threads 97 µs, ractors 16.7 µs per hop, 1:1, 10,000 nodes)"
    rows.each_value do |r|
      per = median(r) && median(r) / hops * 1e6
      line(r["model"], "#{time(r)}  #{format("%.2f µs per hop", per) if per}")
    end
  end
end

experiments = %w[tarai yjit alloc spawn ring]
chosen = (ARGV.empty? || ARGV == ["all"]) ? experiments : ARGV
unknown = chosen - experiments
abort "unknown experiment(s) #{unknown.join(", ")}; choose from #{experiments.join(", ")} or all" unless unknown.empty?
puts "load average before: #{File.read("/proc/loadavg").split.first(3).join(" ")}" if File.exist?("/proc/loadavg")
chosen.each do |name|
  CpuExperiments.public_send(name)
  puts
end
puts "load average after: #{File.read("/proc/loadavg").split.first(3).join(" ")}" if File.exist?("/proc/loadavg")
