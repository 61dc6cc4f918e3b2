# frozen_string_literal: true

# Checks the ops-per-second harness (issue 4) against a peer: benchmark-ips
# times the very same batch code in the same process. The two take turns,
# one sample of ractorbench's then as long a benchmark-ips run, SAMPLES
# rounds, so a machine that slows down or speeds up does so for both. Both
# gross figures (batches x 100 a second) and both net figures (less each
# tool's own measurement of the empty loop) should agree within 5%, and
# ractorbench's relative spread should be no larger than benchmark-ips's
# (the standard deviation of its ~100 ms samples over their mean, pooled
# over the rounds as benchmark-ips's SD statistic does within one run).
#
#   ruby benchmarks/ips_peer.rb [SECONDS_PER_SAMPLE] [SAMPLES]   (rake bench:ips_peer)

require "benchmark/ips"
require_relative "../lib/ractorbench/analysis/ops_per_second"
require_relative "../lib/ractorbench/reports/parts/box_table"
require_relative "../harness/ractorbench/harness/ops_meter"

module IpsPeer
  SUBJECTS = %w[proc-call fiber-resume].freeze
  BATCH = 100
  TOLERANCE = 0.05

  Figure = Struct.new(:rate, :spread, :n, keyword_init: true)

  module_function

  def run(time, samples)
    settings = Ractorbench::Harness::OpsMeter::Settings.new(time: time, samples: 1, warmup: time / 4, gc_off: false, batch_size: BATCH)
    rows = SUBJECTS.flat_map do |name|
      subject = Ractorbench::Harness::Subject.find(name)
      ours = []
      peer = Hash.new { |h, k| h[k] = {iterations: 0, seconds: 0.0, samples: []} }
      samples.times do |round|
        turns = [-> { ours << ractorbench(subject, settings) }, -> { ips(subject, time, peer) }]
        (round.even? ? turns : turns.reverse).each(&:call)
      end
      compare(subject, merged(ours), peer)
    end
    puts table(rows, time, samples)
    puts verdicts(rows)
  end

  # One sample of ractorbench's harness (with its own warm-up and empty loop).
  def ractorbench(subject, settings)
    Ractorbench::Harness::OpsMeter.measure(subject, settings)
  end

  # The rounds' samples as the one run they would have been in the harness
  # (whose empty-loop cost is the fastest of its loop samples).
  def merged(records)
    Ractorbench::Analysis::OpsPerSecond::RunFigures.new(records.first.merge(
      "samples" => records.flat_map { |r| r["samples"] }, "loop_samples" => records.flat_map { |r| r["loop_samples"] }
    ))
  end

  # One benchmark-ips run of a batch of the subject and of the empty loop,
  # added to the totals and samples of the rounds before.
  def ips(subject, time, peer)
    batch = subject.batch(BATCH)
    empty = Array.new(BATCH)
    empty_loop = Ractorbench::Harness::OpsMeter::EmptyLoop
    report = Benchmark.ips(quiet: true) do |x|
      x.config(time: time, warmup: time / 4)
      x.report("subject") { subject.run(batch) }
      x.report("empty loop") { empty_loop.run(empty) }
    end
    report.entries.each do |e|
      totals = peer[e.label]
      totals[:iterations] += e.iterations
      totals[:seconds] += e.microseconds / 1e6
      totals[:samples].concat(e.samples)
    end
  end

  def compare(subject, ours, peer)
    gross = Ractorbench::Stats::Descriptive.new(ours.gross_rates)
    net = Ractorbench::Stats::Descriptive.new(ours.net_rates)
    op, empty = peer.values_at("subject", "empty loop").map { |t| t[:iterations] / t[:seconds] * BATCH }
    op_spread = Ractorbench::Stats::Descriptive.new(peer["subject"][:samples]).stddev / (op / BATCH)
    [
      [subject.seed, "gross", Figure.new(rate: gross.mean, spread: gross.relative_spread, n: gross.n),
        Figure.new(rate: op, spread: op_spread, n: peer["subject"][:samples].size)],
      # benchmark-ips has no empty-loop subtraction; its net here is its
      # subject's cost less its own measurement of the empty loop.
      [subject.seed, "net", Figure.new(rate: net.mean, spread: net.relative_spread, n: net.n),
        Figure.new(rate: 1e9 / (1e9 / op - 1e9 / empty), spread: nil, n: peer["subject"][:samples].size)]
    ]
  end

  def table(rows, time, samples)
    Ractorbench::Reports::Parts::BoxTable.new(
      title: "ops/s of the same batch code, #{samples} rounds: a #{time} s ractorbench sample, then #{time} s of benchmark-ips " \
        "#{Benchmark::IPS::VERSION} (~100 ms samples); #{RUBY_DESCRIPTION[/\A\S+ \S+/]}, GC on",
      headings: ["subject", "figure", "ractorbench ops/s", "± % (n)", "benchmark-ips ops/s", "± % (n)", "ratio", "within 5%"],
      rows: rows.map do |seed, kind, ours, peer|
        ratio = ours.rate / peer.rate
        [seed, kind, count(ours.rate), spread(ours), count(peer.rate), spread(peer), format("%.3f", ratio),
          ((ratio - 1).abs <= TOLERANCE) ? "yes" : "NO"]
      end,
      right: (2..7).to_a
    )
  end

  def verdicts(rows)
    rows.select { |_, kind, _, _| kind == "gross" }.map do |seed, _, ours, peer|
      verdict = (ours.spread <= peer.spread) ? "no larger" : "LARGER"
      format("%s: ractorbench's relative spread %.2f%% vs benchmark-ips's %.2f%%: %s", seed, ours.spread * 100, peer.spread * 100, verdict)
    end + ["load average: #{File.read("/proc/loadavg").split.first(3).join(" ")}"]
  end

  def spread(figure)
    figure.spread ? format("%.2f%% (%d)", figure.spread * 100, figure.n) : "- (#{figure.n})"
  end

  def count(value)
    value.round.to_s.reverse.scan(/\d{1,3}/).join(",").reverse
  end
end

IpsPeer.run(Float(ARGV.fetch(0, "1")), Integer(ARGV.fetch(1, "5")))
