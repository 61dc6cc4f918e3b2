# frozen_string_literal: true

# The size of a results header for a plan of RUNS runs (default 1,000,000),
# built as `ractorbench run` builds it: the plan made and sliced, the Ruby
# probed, the header written, and nothing run. Beside it, what the same plan
# took when the header listed every planned run (files written before the
# recipe). The plan: prime under four models at W=1..10 and M=1..25 (1,000
# configurations), as many repetitions as RUNS needs.
require "tmpdir"
require "json"
require_relative "../lib/ractorbench"

runs = Integer(ENV.fetch("RUNS", "1000000"))
entry = Ractorbench::Plan::Entry.new(workload: "prime", models: %w[serial threads processes ractors],
  configs: (1..10).to_a.product((1..25).to_a), params: {})
Dir.mktmpdir do |dir|
  path = File.join(dir, "plan.jsonl")
  collection = Ractorbench::Collection.new(catalog: Ractorbench::Plan::Catalog.default, entries: [entry],
    rubies: [Ractorbench::Rubies::Target.parse("ruby")], reps: runs / 1000, command: "benchmarks/header_size.rb",
    output: path, seed: 1, sizes: ->(_matrix) {}, scaling_probe: false, progress: File.open(File::NULL, "w"))
  collection.open
  collection.session.writer.close
  header = File.open(path, &:gets)
  listed = JSON.generate(JSON.parse(header).merge("plan" => {"seed" => 1, "runs" => collection.matrix.runs.map(&:to_h)}))
  puts format("a plan of %d runs: header %d bytes with its recipe (%s), %.1f MB with every run listed",
    collection.matrix.runs.size, header.bytesize, JSON.parse(header)["plan"].keys.join(", "), listed.bytesize / 1e6)
end
