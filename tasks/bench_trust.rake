# frozen_string_literal: true

namespace :bench do
  namespace :trust do
    {
      prime: "prime 2x5000 at W=2, every model incl. the split ones, on 3.1 and 4.0.0: speedups, CPU and cost figures (REPS=6)",
      tarai: "tarai(12,6,0) at W=2, M=1 and 4: processes against the 1.8x target (REPS=6)",
      probe: "the ractor-scaling probe on every Ruby found: CPU per iteration of 2 ractors over 1 (PROBES=5)"
    }.each do |name, text|
      desc "Issue 10: #{text}"
      task name do
        ruby "benchmarks/trust.rb", name.to_s
      end
    end
  end

  desc "Issue 10: every trust benchmark (probe, tarai, prime)"
  task trust: %w[trust:probe trust:tarai trust:prime]
end
