# frozen_string_literal: true

# Seed 001's mruby column, then and now (issue 27), from a results file of
# `run --suite concurrently --ruby mruby --ruby 3.1 --ruby 4.0 ...`: two
# Markdown tables. First, every subject mruby measured, its ops/s next to
# each CRuby's (net of the empty loop, mean ± sd, n samples). Second,
# mruby's ops/s over each CRuby's beside the seed's (mruby 1.3.0 over Ruby
# 2.4.1): gross, as the seed counted (its "N executions in 1 s" include the
# loop), and net. A ratio is of means; its spread, first-order, is the two
# relative standard deviations added in quadrature.
#
#   bundle exec ruby benchmarks/mruby_column.rb RESULTS.jsonl
require "json"
require "open3"

# The seed's executions in 1 s (GC off, i7-5820K): [Ruby 2.4.1, mruby 1.3.0].
SEED = {
  "proc.call" => [11_048_400, 4_771_700],
  "conproc.call" => [734_000, 362_000],
  "conproc.call_nonblock" => [857_800, 427_400],
  "conproc.call_detached" => [464_800, 188_900],
  "conproc.call_and_forget" => [721_800, 383_400],
  "wait" => [291_100, 104_300],
  "await_readable" => [147_800, 132_600],
  "await_writable" => [148_300, 130_500]
}.freeze
MRUBY = "mruby"

path = ARGV.fetch(0) { abort "usage: ruby benchmarks/mruby_column.rb RESULTS.jsonl" }
json, err, status = Open3.capture3(File.expand_path("../exe/ractorbench", __dir__), "report", path, "--format", "json")
abort err unless status.success?
rows = JSON.parse(json).fetch("ops_per_second").reject { |r| r["table"] == "call_methods_waiting" }
rubies = rows.map { |r| r["ruby"] }.uniq.sort_by { |name| [(name == MRUBY) ? 0 : 1, name] }
cruby = rubies - [MRUBY]

def figure(summary) = format("%s ± %s (n %d)", count(summary["mean"]), count(summary["stddev"]), summary["samples"])

def count(value) = value.round.to_s.reverse.scan(/\d{1,3}/).join(",").reverse

def ratio(a, b)
  spread = Math.sqrt((a["stddev"] / a["mean"])**2 + (b["stddev"] / b["mean"])**2)
  format("%.2f ± %.0f%%", a["mean"] / b["mean"], spread * 100)
end

def cell(row, key = "ops_per_second")
  return "not supported: #{row["unsupported"]}" if row["unsupported"]
  return "no successful runs" if row["runs"].zero?

  figure(row[key])
end

by_subject = rows.group_by { |r| r["subject"] }
measured = by_subject.select { |_, list| list.any? { |r| r["ruby"] == MRUBY && r["runs"].positive? } }

puts "| seed | ran on mruby | #{rubies.map { |r| "#{r} ops/s net" }.join(" | ")} |"
puts "|#{" --- |" * 2}#{" ---: |" * rubies.size}"
measured.each_value do |list|
  on = list.to_h { |r| [r["ruby"], r] }
  puts "| #{list.first["seed"]} | #{on[MRUBY]["ran"]} | #{rubies.map { |r| on[r] ? cell(on[r]) : "-" }.join(" | ")} |"
end
skipped = by_subject.reject { |subject, _| measured.key?(subject) }
  .group_by { |_, list| list.find { |r| r["ruby"] == MRUBY }&.fetch("unsupported") }
puts
puts "Not supported on mruby: #{skipped.map { |why, subjects| "#{subjects.map(&:first).join(", ")} (#{why})" }.join("; ")}."
puts
puts "| seed | then: mruby 1.3.0 / Ruby 2.4.1 | #{cruby.map { |r| "now: mruby / #{r}, gross | now: mruby / #{r}, net" }.join(" | ")} |"
puts "| --- |#{" ---: |" * (1 + 2 * cruby.size)}"
SEED.each do |seed, (ruby, mruby)|
  list = rows.select { |r| r["seed"] == seed }
  mine = list.find { |r| r["ruby"] == MRUBY && r["runs"].positive? }
  now = cruby.map do |name|
    theirs = list.find { |r| r["ruby"] == name && r["runs"].positive? }
    next "not on mruby | not on mruby" unless mine && theirs

    "#{ratio(mine["gross_ops_per_second"], theirs["gross_ops_per_second"])} | #{ratio(mine["ops_per_second"], theirs["ops_per_second"])}"
  end
  puts "| #{seed} | #{format("%.2f", mruby.to_f / ruby)} | #{now.join(" | ")} |"
end
