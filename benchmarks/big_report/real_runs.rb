# frozen_string_literal: true

require "json"
require "digest"
require_relative "../../lib/ractorbench/plan/configuration"

# A big results file shaped like a real collection's: the run lines of a
# small real `ractorbench run` multiplied into `runs` lines, every field a
# real run records kept, in the order it wrote them. Each real configuration
# is copied at larger message counts (its id, results, jobs and digest
# following the count), its runs repeated in shuffled rounds as the planner
# orders them, and every measured number varied as runs vary: times and
# costs with noise at the precision the collector writes them, worker job
# counts split anew, a share of the runs disturbed and a share failed (a real
# failed run's failure fields on an ok configuration). The header is the
# real one with a plan the size of the file's and the digest of its runs, as
# a collection writes it (no recipe: these copies are no command line's), or
# with listed: true every planned run listed, as files written before the
# recipe hold them. Deterministic for a seed.
class RealRuns
  IDENTITY = %w[workload model workers messages params ruby rep].freeze
  # Seconds as the collector writes them: clock differences in full, CPU
  # seconds to the microsecond, other programs' CPU to the millisecond.
  FULL_SECONDS = %w[messages_time setup_time finish_time].freeze
  MICRO_SECONDS = %w[whole_time user system messages_cpu].freeze
  # Counts that follow the work done, varied by noise; small ones by ±1.
  SCALED_COUNTS = %w[peak_rss_kb workers_peak_rss_kb workers_pss_kb supervisor_pss_kb minor_faults voluntary_switches
    involuntary_switches allocated_objects].freeze
  SMALL_COUNTS = %w[gc_count gc_time_ms].freeze
  FAILURE = %w[backtrace status failure reason stderr_tail].freeze
  MEASURED = %w[messages_time digest results peak_rss_kb setup_time finish_time messages_cpu minor_faults major_faults
    voluntary_switches involuntary_switches allocated_objects gc_count gc_time_ms workers_peak_rss_kb workers_pss_kb
    supervisor_pss_kb worker_jobs worker_batches].freeze

  attr_reader :configurations, :reps

  # lines: the real collection's lines (its header first).
  def initialize(lines, runs:, configurations:, disturbed:, failed:, seed: 1, listed: false)
    @listed = listed
    @header = JSON.parse(lines.first)
    real = lines.drop(1).map { |line| JSON.parse(line) }.select { |r| r["type"] == "run" }
    @samples = real.group_by { |r| r["id"].sub(%r{/rep\d+\z}, "") }.values
    @failures = real.select { |r| r["status"] == "failed" }.group_by { |r| r.values_at("model", "ruby", "workers") }
    @runs = runs
    copies = (configurations + @samples.size - 1) / @samples.size
    @copies = (1..copies).to_a
    @configurations = @samples.size * copies
    @reps = (runs + @configurations - 1) / @configurations
    @disturbed = disturbed
    @failed = failed
    @rng = Random.new(seed)
  end

  # Writes the file to path: the header, then each run line.
  def write(path)
    order = planned_order
    File.open(path, "w") do |file|
      file.write(header_line(order))
      clock = Time.utc(2026, 1, 1).to_f
      order.each_with_index do |(samples, copy, rep), i|
        record = run(samples, copy, rep, i + 1, clock)
        clock += record["whole_time"] + 0.05
        file.write(JSON.generate(record), "\n")
      end
    end
  end

  private

  # [samples, copy, rep] in file order: a shuffled round of every
  # configuration per repetition, cut at the wanted number of runs.
  def planned_order
    configurations = @samples.product(@copies)
    (1..@reps).flat_map { |rep| configurations.shuffle(random: @rng).map { |samples, copy| [samples, copy, rep] } }.first(@runs)
  end

  def header_line(order)
    plan = order.map { |samples, copy, rep| identity(samples.first, copy).merge("rep" => rep) }
    recorded = if @listed
      {"seed" => @header["seed"], "runs" => plan}
    else
      ids = plan.map { |run| Ractorbench::Plan::Configuration.of(run).run_id(run["rep"]) }
      {"seed" => @header["seed"], "size" => plan.size, "digest" => "sha256:#{Digest::SHA256.hexdigest(ids.map { |id| "#{id}\n" }.join)}"}
    end
    header = @header.merge("command" => "benchmarks/big_report.rb (#{@runs} runs from: #{@header["command"]})",
      "reps" => @reps, "plan" => recorded)
    "#{JSON.generate(header)}\n"
  end

  def identity(sample, copy)
    sample.slice(*IDENTITY).merge("messages" => sample["messages"] * copy)
  end

  def run(samples, copy, rep, seq, clock)
    sample = samples.sample(random: @rng)
    failed = sample["status"] == "ok" && @rng.rand < @failed && @failures[sample.values_at("model", "ruby", "workers")]
    base = failed ? failed_run(sample, failed.sample(random: @rng)) : sample
    record = {}
    base.each { |key, value| record[key] = field(key, value, sample, copy) }
    record.merge!("id" => Ractorbench::Plan::Configuration.of(record).run_id(rep), "seq" => seq, "rep" => rep, "started_at" => Time.at(clock).utc.strftime("%Y-%m-%dT%H:%M:%S.%LZ"))
    disturb(record)
  end

  # An ok run's identity with a real failed run's failure fields, in the
  # order a failed run's line has them.
  def failed_run(sample, failure)
    failure.to_h { |key, value| [key, (FAILURE.include?(key) || !sample.key?(key)) ? value : sample[key]] }
      .except(*MEASURED)
  end

  def field(key, value, sample, copy)
    case key
    when "messages" then value * copy
    when "results" then value * copy
    when "digest" then digest(sample, copy)
    when "worker_jobs" then split(value.sum * copy, value.size)
    when "worker_batches" then split((value.sum * copy * (0.8 + @rng.rand / 5)).round, value.size)
    when *FULL_SECONDS then noisy(value)
    when *MICRO_SECONDS then noisy(value).round(6)
    when "load_average_1m" then (value * (0.5 + @rng.rand)).round(2)
    when *SCALED_COUNTS then noisy(value).round
    when *SMALL_COUNTS then [value + @rng.rand(-1..1), 0].max
    else value
    end
  end

  # The same for every model and Ruby of the same jobs, as a real
  # collection's digests are (the real one at the size it was made at
  # differs from a made-up one of another size, and 13% of the runs read
  # as wrong).
  def digest(sample, copy)
    jobs = sample["workers"] * sample["messages"] * copy
    Digest::SHA1.base64digest("#{sample["workload"]}/#{sample["params"].sort}/#{jobs}")
  end

  # A time or count with the spread of runs on a machine: about 5%, and
  # one run in fifty twice as slow.
  def noisy(value)
    factor = 1 + 0.05 * gaussian
    factor *= 2 if @rng.rand < 0.02
    (value * factor.clamp(0.5, 3)).abs
  end

  def gaussian = Math.sqrt(-2 * Math.log(1 - @rng.rand)) * Math.cos(2 * Math::PI * @rng.rand)

  # total jobs over n workers as a pulling model hands them out.
  def split(total, n)
    return [total] if n == 1

    cuts = Array.new(n - 1) { @rng.rand(0..total) }.sort
    ([0] + cuts + [total]).each_cons(2).map { |a, b| b - a }
  end

  # Other programs' CPU and steal as Measure::Interference records them:
  # disturbed runs shared the machine, the others hardly.
  def disturb(record)
    busy = @rng.rand < @disturbed
    record["others_cpu"] = (busy ? 0.5 + @rng.rand : @rng.rand / 50).round(3) if record.key?("others_cpu")
    record["steal"] = (busy && @rng.rand < 0.3) ? (record["whole_time"] * @rng.rand / 4).round(6) : 0.0 if record.key?("steal")
    record["disturbed"] = busy if record.key?("disturbed")
    record
  end
end
