# frozen_string_literal: true

namespace :bench do
  desc "compare on real runs: a planted 20% slowdown vs no change (ROUNDS=3 REPS=8)"
  task :compare do
    ruby "benchmarks/compare_sensitivity.rb"
  end

  desc "Time to render each report format and a compare of a large results file (CONFIGS=200 REPS=10)"
  task :report_cost do
    ruby "benchmarks/report_cost.rb"
  end

  desc "Speedup intervals on simulated repetitions: coverage and width of each method (TRIALS=300 SIZES=30,50,99 DRIFTS=0,1,3)"
  task :intervals do
    ruby "benchmarks/interval_coverage.rb"
  end
end
