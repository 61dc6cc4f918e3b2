# frozen_string_literal: true

namespace :bench do
  desc "The harness's own overhead per run vs `ruby -e 0` (SAMPLES=30)"
  task :harness do
    ruby "benchmarks/harness_overhead.rb"
  end

  desc "The basic-benchmarking suite at W=2 (REPS=10, SCALE=1.0), as a Markdown table"
  task :basic do
    out = "tmp/bench-basic-#{Time.now.strftime("%Y%m%d-%H%M%S")}.jsonl"
    mkdir_p "tmp"
    sh "exe/ractorbench", "run", "--suite", "basic-benchmarking", "--workers", "2", "--reps", ENV.fetch("REPS", "10"),
      "--scale", ENV.fetch("SCALE", "1.0"), "-o", out
    sh "exe/ractorbench", "report", out, "--format", "markdown"
  end
end

namespace :bench do
  desc "report on a generated file of RUNS=1000000 runs: wall time and peak memory, text and html (FORMATS=text,html)"
  task :big_report do
    ruby "benchmarks/big_report.rb"
  end
end
