# frozen_string_literal: true

require_relative "../suite"

# "Ractor Basic Benchmarking" (seeds 000 and 004): the collector's setup, with
# serial standing for the seed's single_test.
Ractorbench::Plan::Suite.define("basic-benchmarking",
  "prime bit-vector: fork vs threads vs ractors vs pipeless ractors (How Fast are Ractors?)", reps: 10, title: "Ractor Basic Benchmarking",
  # In the tour, one size at half the seed's chunks: about 0.2 s of serial
  # work, long enough for forked workers to show their lead.
  tour: {scale: 0.1, configs: [[5, 1000]], reps: 3}) do |s|
  s.entry workload: "prime", models: %w[serial threads processes ractors ractors-pipeless],
    configs: [[5, 2000], [10, 1000]]
end
