# frozen_string_literal: true

require_relative "../suite"

require_relative "../scaling"
require_relative "../../../../harness/workloads/tarai"

# "Exploring Ruby Ractors" (seed 003): fib(38) x 10 and tarai(14, 7, 0) x 4,
# serial vs threads vs ractors, each with and without YJIT. The seed's
# "C copies with concurrency C" is W = C workers with one job each.
# --scale F keeps the copies and shrinks each call: fib's n and tarai's
# arguments are chosen so that one call makes about F times the calls.
Ractorbench::Plan::Suite.define("exploring-ractors",
  "fib(38) x 10 and tarai(14,7,0) x 4: serial vs threads vs ractors, YJIT off and on (Exploring Ruby Ractors)",
  reps: 6, yjit: "both", title: "Exploring Ruby Ractors", tour: {scale: 0.01, reps: 3}) do |s|
  scaling = Ractorbench::Plan::Scaling
  models = %w[serial threads ractors]

  s.entry workload: "fib", models: models, configs: [[10, 1]], params: {"n" => 38},
    scale: ->(entry, f) { Ractorbench::Plan::Entry.new(**entry.to_h, params: {"n" => scaling.fib_n(entry.params["n"], f)}) }

  s.entry workload: "tarai", models: models, configs: [[4, 1]], params: {"x" => 14, "y" => 7, "z" => 0},
    scale: lambda { |entry, f|
      x, y, z = Ractorbench::Workloads::Tarai.scaled_args(*entry.params.values_at("x", "y", "z"), f)
      Ractorbench::Plan::Entry.new(**entry.to_h, params: {"x" => x, "y" => y, "z" => z})
    }
end
