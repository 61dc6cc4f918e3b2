# frozen_string_literal: true

require_relative "../suite"

require_relative "../scaling"
require_relative "../../../../harness/workloads/tarai"

# "Ractor reconsidered" (seed 002, RubyKaigi 2023): tarai(14, 7, 0) x 4 and
# 10,000,000 allocations x 4, sequential (serial) vs parallel (ractors);
# creating and joining 10,000 units with GC on and off; a ring of 10,000
# nodes passing a token 1,000 times; and Ractor.select's O(n) fan-in against
# one shared mailbox. The seed's M:N rows: add --mn both --max-cpu 1 (Ruby
# >= 3.3; earlier Rubies get "not supported" rows).
# --scale F: tarai's arguments as in exploring-ractors, allocations and
# units by F, ring nodes and laps each by sqrt(F) (hops by F), fan-in
# messages by sqrt(F) so the smallest scales still pass some.
Ractorbench::Plan::Suite.define("ractor-reconsidered",
  "tarai and allocation seq vs par, spawn 10,000 units GC on/off, ring 10,000 x 1,000, select fan-in (Ractor reconsidered)",
  reps: 6, title: "Ractor reconsidered", tour: {scale: 0.005, reps: 3}) do |s|
  scaling = Ractorbench::Plan::Scaling
  entry = Ractorbench::Plan::Entry
  seq_par = %w[serial ractors]

  s.entry workload: "tarai", models: seq_par, configs: [[4, 1]], params: {"x" => 14, "y" => 7, "z" => 0},
    scale: lambda { |e, f|
      x, y, z = Ractorbench::Workloads::Tarai.scaled_args(*e.params.values_at("x", "y", "z"), f)
      entry.new(**e.to_h, params: {"x" => x, "y" => y, "z" => z})
    }

  s.entry workload: "alloc", models: seq_par, configs: [[4, 1]], params: {"iterations" => 10_000_000},
    scale: ->(e, f) { entry.new(**e.to_h, params: {"iterations" => scaling.count(e.params["iterations"], f)}) }

  units = ->(e, f) { entry.new(**e.to_h, configs: e.configs.map { |w, m| [scaling.count(w, f), m] }) }
  %w[on off].each do |gc|
    s.entry workload: "spawn", models: %w[threads ractors fibers processes], configs: [[10_000, 1]], params: {"gc" => gc}, scale: units
  end

  s.entry workload: "ring", models: %w[threads ractors fibers], configs: [[1, 1000]], params: {"nodes" => 10_000},
    scale: lambda { |e, f|
      entry.new(**e.to_h, configs: e.configs.map { |w, m| [w, scaling.square_root(m, f)] },
        params: {"nodes" => scaling.square_root(e.params["nodes"], f)})
    }

  fan_in = ->(e, f) { entry.new(**e.to_h, configs: e.configs.map { |w, m| [w, scaling.square_root(m, f)] }) }
  %w[select mailbox].each do |via|
    s.entry workload: "fan-in", models: %w[ractors], configs: [[4, 2500], [64, 156]], params: {"via" => via}, scale: fan_in
  end
end
