# frozen_string_literal: true

# Seed 001's own commands, `rake "benchmark[call_methods]"` and so on, run on
# ractorbench (Concurrently's call styles mapped onto async's Fiber::Scheduler).
CONCURRENTLY_TABLES = %w[call_methods wait_methods call_methods_waiting].freeze

desc "Seed 001's table NAME (#{CONCURRENTLY_TABLES.join(", ")}; default wait_methods as in the seed), TIME s samples (default 1)"
task :benchmark, [:name, :time] do |_, args|
  name = args[:name] || "wait_methods"
  abort "rake benchmark[NAME]: unknown table #{name.inspect}; choose one of #{CONCURRENTLY_TABLES.join(", ")}" unless CONCURRENTLY_TABLES.include?(name)

  mkdir_p "tmp"
  sh "exe/ractorbench", "run", "--suite", "concurrently-#{name.tr("_", "-")}", "--time", args[:time] || "1",
    "-o", "tmp/benchmark-#{name}-#{Time.now.strftime("%Y%m%d-%H%M%S")}.jsonl"
end

namespace :bench do
  desc "Issue 4: the ops/s harness vs benchmark-ips on proc.call and a raw fiber, same code, same process (TIME=1 SAMPLES=5)"
  task :ips_peer do
    ruby "benchmarks/ips_peer.rb", ENV.fetch("TIME", "1"), ENV.fetch("SAMPLES", "5")
  end
end
