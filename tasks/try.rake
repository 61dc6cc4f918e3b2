# frozen_string_literal: true

namespace :bench do
  desc "`ractorbench try` on every example: check and sweep time, best speedup per model (REPS, WORKERS to override)"
  task :try do
    ruby "benchmarks/try_examples.rb"
  end

  desc "try's best ractor and process shapes at W=2 against a hand-written static split (REPS, RUBY; workloads as args)"
  task :fair_fight, [:workloads] do |_, args|
    ruby "benchmarks/fair_fight.rb", *args[:workloads].to_s.split
  end

  desc "`try` on ITEMS=500000 tiny items: the measured part vs the rest of each run (MODELS, REPS)"
  task :tiny_items do
    ruby "benchmarks/try_tiny_items.rb"
  end
end
