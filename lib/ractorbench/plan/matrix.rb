# frozen_string_literal: true

require_relative "run_spec"
require_relative "entry"

module Ractorbench
  module Plan
    # The matrix of runs (workloads x models x sizes x rubies x repetitions) in
    # the order they will run. Each repetition is one block holding every arm
    # once, shuffled with a recorded seed, so slow drift of the machine falls on
    # every model and Ruby alike and --seed replays the same order.
    class Matrix
      attr_reader :seed, :runs

      def self.build(entries:, rubies:, reps:, seed:)
        rng = Random.new(seed)
        runs = (1..reps).flat_map do |rep|
          arms = entries.flat_map do |entry|
            entry.models.product(entry.configs, rubies).map do |model, (workers, messages), ruby|
              Plan::RunSpec.new(workload: entry.workload, model: model, workers: workers, messages: messages,
                params: entry.params || {}, ruby: ruby, rep: rep)
            end
          end
          arms.uniq(&:id).shuffle(random: rng)
        end
        new(seed: seed, runs: runs)
      end

      def self.from_h(hash)
        new(seed: hash.fetch("seed"), runs: hash.fetch("runs").map { |h| Plan::RunSpec.from_h(h) })
      end

      def initialize(seed:, runs:)
        @seed = seed
        @runs = runs
      end

      def to_h
        {"seed" => seed, "runs" => runs.map(&:to_h)}
      end
    end
  end
end
