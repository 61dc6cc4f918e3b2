# frozen_string_literal: true

# Issue 10's benchmarks ("numbers you can trust"), each through the real CLI
# on every Ruby found (this one, /opt/rubies/ruby-4.0.0 and -3.4.0), printed
# as ratios measured in one collection with their 95% interval and n, and
# the machine's load before and after, since figures from a busy machine
# are not figures. Usage:
#   ruby benchmarks/trust.rb prime|tarai|probe|all
# Sizes: REPS (6), PROBES (5); WAIT_QUIET (30): seconds each run may wait for
# other programs to go quiet (--wait-quiet).
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "json"
require "rbconfig"
require "tmpdir"
require "ractorbench"
require "ractorbench/store"
require "ractorbench/analysis"
require "ractorbench/analysis/rows"
require "ractorbench/rubies/target"
require "ractorbench/measure/child_environment"

module TrustBenchmarks
  EXE = File.expand_path("../exe/ractorbench", __dir__)
  REPS = ENV.fetch("REPS", "6")
  # Each run first waits up to this long for other programs to go quiet.
  WAIT_QUIET = ENV.fetch("WAIT_QUIET", "30")
  OTHER_RUBIES = {"ruby40" => "/opt/rubies/ruby-4.0.0/bin/ruby", "ruby34" => "/opt/rubies/ruby-3.4.0/bin/ruby"}.freeze
  # prime 2x5000 split statically in two by hand, outside the tool (two
  # forks, two ractors): what the split models should come within 5% of,
  # measured on each Ruby the same day, each arm in a fresh process.
  STATIC_SPLIT = File.expand_path("fixtures/static_split.rb", __dir__)
  STATIC_MODELS = {"processes-split" => "fork", "ractors-split" => "ractors"}.freeze

  module_function

  def rubies(only = nil)
    found = {"ruby31" => RbConfig.ruby}.merge(OTHER_RUBIES.select { |_, path| File.executable?(path) })
    only ? found.slice(*only) : found
  end

  def load_line = "load #{File.read("/proc/loadavg").split.first(3).join(" ")}"

  # Runs the CLI; returns the rows of its results, keyed by [model, ruby, workers, messages].
  def collect(name, *args)
    out = File.join(Dir.tmpdir, "ractorbench-trust-#{name}-#{Process.pid}.jsonl")
    command = [EXE, "run", "--reps", REPS, "--wait-quiet=#{WAIT_QUIET}", *args, "-o", out]
    puts "$ ractorbench #{command.drop(1).join(" ")}"
    puts "  #{load_line} before"
    system(RbConfig.ruby, *command, out: File::NULL, err: File::NULL)
    puts "  #{load_line} after (1-minute average: say so next to any figure if it was not near 0)"
    analysis = Ractorbench::Analysis.new(Ractorbench::Store.read(out))
    analysis.runs.reject { |r| %w[ok unsupported].include?(r["status"]) }.each { |r| puts "  FAILED #{r["id"]}: #{r["reason"]}" }
    disturbed = analysis.runs.count { |r| r["disturbed"] }
    puts "  digests agree: #{analysis.digest_check.agree?}; #{disturbed} of #{analysis.runs.size} runs disturbed by other programs; results in #{out}"
    Ractorbench::Analysis::Rows.for(analysis).to_h { |r| [[r["model"], r["ruby"], r["workers"], r["messages"]], r] }
  end

  def ruby_args(rubies) = rubies.flat_map { |name, path| ["--ruby", "#{name}=#{path}"] }

  def speedup(row)
    return row["unsupported"] || "no successful run" if row.nil? || row["speedup"].nil?

    ci = row["speedup_ci"]
    interval = (ci && ci["low"]) ? format("[%.2f, %.2f]", ci["low"], ci["high"]) : "(no interval)"
    format("%.2f× %s n=%d", row["speedup"], interval, row["samples"])
  end

  def count(value) = value.nil? ? "-" : value.round.to_s.reverse.scan(/\d{1,3}/).join(",").reverse

  def cost(row)
    format("CPU %s serial's; minor faults %s, switches %s vol + %s invol, GC %s runs %s ms, objects %s",
      row["cpu_cost"] ? format("%.2f×", row["cpu_cost"]) : "-", count(row["minor_faults"]), count(row["voluntary_switches"]),
      count(row["involuntary_switches"]), count(row["gc_count"]), count(row["gc_time_ms"]), count(row["allocated_objects"]))
  end

  def verdict(value, target) = (value && value >= target) ? "meets #{format("%.2f", target)}×" : "MISSES #{format("%.2f", target)}×"

  def prime
    models = %w[serial threads processes processes-split ractors ractors-pipeless ractors-split fibers]
    found = rubies(%w[ruby31 ruby40])
    rows = collect("prime", "-w", "prime", "-m", models.join(","), "--workers", "2", "--messages", "5000", *ruby_args(found))
    found.each_key do |ruby|
      puts "prime 2×5000 chunks, W=2, #{ruby}: speedup over serial of the messages-only time"
      models.each do |model|
        row = rows[[model, ruby, 2, 5000]]
        puts format("  %-17s %-34s %s", model, speedup(row), (row && row["speedup"]) ? cost(row) : "")
      end
      processes = rows[["processes", ruby, 2, 5000]]&.speedup
      best_ractor = %w[ractors ractors-pipeless ractors-split].filter_map { |m| rows[[m, ruby, 2, 5000]]&.speedup }.max
      puts "  => processes #{verdict(processes, 1.8)}; best ractor model #{verdict(best_ractor, 1.7)}"
      static = static_split(found[ruby])
      STATIC_MODELS.each do |model, hand|
        s = rows[[model, ruby, 2, 5000]]&.speedup
        next puts("  => #{model}: no speedup") unless s

        puts format("  => %s %.2f× vs a hand-written static split (%s) %s: %s", model, s, hand, static[hand][:text],
          (s >= static[hand][:median] * 0.95) ? "within 5%" : "more than 5% below")
      end
    end
  end

  # Median speedup over serial of the hand-written splits on one Ruby, with
  # its range and n: REPS rounds of serial, fork and ractors, each arm in a
  # fresh process (benchmarks/fixtures/static_split.rb), paired by round.
  def static_split(path)
    env = Ractorbench::Measure::ChildEnvironment.base
    arms = %w[serial] + STATIC_MODELS.values
    times = Array.new(Integer(REPS)) do
      arms.to_h { |arm| [arm, Float(IO.popen(env, [path, STATIC_SPLIT, arm, "2"], unsetenv_others: true, &:read))] }
    end
    STATIC_MODELS.values.to_h do |hand|
      ratios = times.map { |round| round["serial"] / round[hand] }.sort
      median = ratios[ratios.size / 2]
      [hand, {median: median, text: format("%.2f× (min %.2f, max %.2f, n=%d)", median, ratios.first, ratios.last, ratios.size)}]
    end
  end

  def tarai
    found = rubies(%w[ruby31 ruby40])
    rows = collect("tarai", "-w", "tarai", "-m", "serial,processes,processes-split,ractors", "--workers", "2", "--messages", "1,4",
      "--param", "x=12", "--param", "y=6", "--param", "z=0", *ruby_args(found))
    found.each_key do |ruby|
      [1, 4].each do |m|
        puts "tarai(12,6,0), W=2 M=#{m}, #{ruby}"
        %w[processes processes-split ractors].each do |model|
          row = rows[[model, ruby, 2, m]]
          idle = (row && row["idle_worker_runs"].to_i.positive?) ? "a worker idle in #{row["idle_worker_runs"]} runs" : ""
          puts format("  %-17s %-34s %s", model, speedup(row), idle)
        end
        puts "  => processes #{verdict(rows[["processes", ruby, 2, m]]&.speedup, 1.8)}"
      end
    end
  end

  # The ractor-scaling probe PROBES times per Ruby: CPU per iteration of
  # 2 ractors over 1, and how much faster 2 finished than 1 (wall).
  def probe
    n = Integer(ENV.fetch("PROBES", "5"))
    puts "ractor-scaling probe (harness/scaling_probe.rb, W=2, through the run launcher), #{n} times per Ruby; #{load_line}"
    rubies.each do |name, path|
      samples = Array.new(n) do
        target = Ractorbench::Rubies::Target.new(name: name, argv: [path]).probe!
        target.scaling_probe!(2).info["ractor_scaling"]
      end.select { |s| s["cpu_ratio"] }
      next puts("  #{name}: the probe gave no figures") if samples.empty?

      cpu = samples.map { |s| s["cpu_ratio"] }.sort
      wall = samples.map { |s| s["wall_speedup"] }.sort
      puts format("  %-7s CPU/iteration 2 vs 1: median %.2f× (min %.2f, max %.2f); wall speedup median %.2f× (min %.2f, max %.2f); n=%d",
        name, cpu[cpu.size / 2], cpu.first, cpu.last, wall[wall.size / 2], wall.first, wall.last, samples.size)
    end
    puts "  #{load_line} after"
  end
end

what = ARGV.fetch(0, "all")
abort "usage: ruby benchmarks/trust.rb prime|tarai|probe|all" unless %w[prime tarai probe all].include?(what)
(what == "all") ? %i[probe tarai prime].each { |t| TrustBenchmarks.public_send(t) } : TrustBenchmarks.public_send(what)
