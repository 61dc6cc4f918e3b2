# frozen_string_literal: true

require "json"

# Results files written by the tests themselves, for the statistical cases
# that must come out the same on every run (a planted 20% slowdown, two
# samples of one distribution, a loaded machine): real collections on a
# shared machine cannot promise either. The format is the one Store writes.
module SyntheticResults
  MACHINE = {"cpu_model" => "Synthetic CPU", "cores" => 4, "usable_cores" => 4, "affinity_cores" => 4,
             "cgroup_cpu_limit" => nil, "load_average" => [0.05, 0.05, 0.05], "memory_kb" => 8_000_000,
             "os" => "synthetic", "hostname" => "test", "scaling_governors" => nil}.freeze

  module_function

  # samples: {[workload, model, workers, messages, ruby] => [messages_time, ...]}; repetition i of
  # every configuration is one shuffled block, as a real plan interleaves them.
  # jit: names of Rubies to record as running with YJIT; run_load: the
  # load average each run records as it began; header: more header fields.
  def write(path, samples, machine: {}, jit: [], seed: 1, run_load: 0.1, header: {})
    rubies = samples.keys.map(&:last).uniq
    header = {"type" => "header", "tool" => "ractorbench", "version" => Ractorbench::VERSION,
              "command" => "synthetic", "created_at" => "2026-01-01T00:00:00Z", "seed" => seed,
              "machine" => MACHINE.merge(machine), "rubies" => rubies.map { |r| ruby(r, jit.include?(r)) },
              "load" => [], "plan" => {"seed" => seed, "runs" => []}}.merge(header)
    records = runs(samples, seed).each { |r| r["load_average_1m"] = run_load }
    File.write(path, ([header] + records).map { |r| JSON.generate(r) }.join("\n") + "\n")
    path
  end

  def ruby(name, jit)
    {"name" => name, "argv" => jit ? ["ruby", "--yjit"] : ["ruby"], "env" => {},
     "info" => {"description" => "ruby 3.1.2 (synthetic)#{" +YJIT" if jit}", "engine" => "ruby",
                "features" => {"yjit_enabled" => jit}}}
  end

  def runs(samples, seed)
    rng = Random.new(seed)
    reps = samples.values.map(&:size).max
    seq = 0
    (1..reps).flat_map do |rep|
      samples.select { |_, times| times[rep - 1] }.to_a.shuffle(random: rng).map do |(workload, model, workers, messages, ruby), times|
        seq += 1
        t = times[rep - 1]
        {"type" => "run", "id" => "#{workload}/#{model}/w#{workers}/m#{messages}/#{ruby}/rep#{rep}", "seq" => seq,
         "workload" => workload, "model" => model, "workers" => workers, "messages" => messages, "params" => {},
         "ruby" => ruby, "rep" => rep, "messages_time" => t, "whole_time" => t + 0.05, "digest" => "same-work",
         "results" => workers * messages, "gc_count" => 0, "peak_rss_kb" => 12_000, "status" => "ok",
         "user" => t, "system" => 0.001}
      end
    end
  end

  # One collection of two Rubies, "ruby" and "yjit": serial 20% faster on
  # yjit, threads the same; 8 runs of each.
  def two_rubies(path)
    write(path, {
      ["prime", "serial", 2, 50, "ruby"] => draws(8, median: 0.010, seed: 11),
      ["prime", "serial", 2, 50, "yjit"] => draws(8, median: 0.008, seed: 12),
      ["prime", "threads", 2, 50, "ruby"] => draws(8, median: 0.011, seed: 13),
      ["prime", "threads", 2, 50, "yjit"] => draws(8, median: 0.011, seed: 14)
    })
  end

  # n draws of median * exp(N(0, spread)): skewed right like run times.
  def draws(n, median:, spread: 0.03, seed: 1)
    rng = Random.new(seed)
    Array.new(n) do
      gauss = Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)
      (median * Math.exp(spread * gauss)).round(7)
    end
  end
end
