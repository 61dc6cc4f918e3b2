# frozen_string_literal: true

require_relative "run_spec"

module Ractorbench
  # The matrix of runs (workloads x models x sizes x rubies x repetitions) in
  # the order they will run. Each repetition is one block holding every arm
  # once, shuffled with a recorded seed, so slow drift of the machine falls on
  # every model and Ruby alike and --seed replays the same order.
  class Plan
    # One workload with the models and (workers, messages) pairs to run it at.
    Entry = Struct.new(:workload, :models, :configs, :params, keyword_init: true)

    attr_reader :seed, :runs

    def self.build(entries:, rubies:, reps:, seed:)
      rng = Random.new(seed)
      runs = (1..reps).flat_map do |rep|
        arms = entries.flat_map do |entry|
          entry.models.product(entry.configs, rubies).map do |model, (workers, messages), ruby|
            RunSpec.new(workload: entry.workload, model: model, workers: workers, messages: messages,
              params: entry.params || {}, ruby: ruby, rep: rep)
          end
        end
        arms.uniq(&:id).shuffle(random: rng)
      end
      new(seed: seed, runs: runs)
    end

    def self.from_h(hash)
      new(seed: hash.fetch("seed"), runs: hash.fetch("runs").map { |h| RunSpec.from_h(h) })
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
