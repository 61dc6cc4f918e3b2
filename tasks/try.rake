# frozen_string_literal: true

namespace :bench do
  desc "`ractorbench try` on every example: check and sweep time, best speedup per model (REPS, WORKERS to override)"
  task :try do
    ruby "benchmarks/try_examples.rb"
  end
end
