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
end
