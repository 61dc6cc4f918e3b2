# frozen_string_literal: true

namespace :bench do
  namespace :cpu do
    %w[tarai yjit alloc spawn ring].each do |experiment|
      desc "Issue 3: the seeds' #{experiment} experiment, compared with the seed's claim (REPS=5)"
      task experiment do
        ruby "benchmarks/cpu_experiments.rb", experiment
      end
    end
  end

  desc "Issue 3: every CPU / Ractor-runtime experiment (tarai, yjit, alloc, spawn, ring)"
  task cpu: %w[cpu:tarai cpu:yjit cpu:alloc cpu:spawn cpu:ring]
end
