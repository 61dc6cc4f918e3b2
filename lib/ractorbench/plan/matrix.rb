# frozen_string_literal: true

require "digest"
require "json"
require_relative "run_spec"
require_relative "entry"
require_relative "shard"
require_relative "size"

module Ractorbench
  module Plan
    # The matrix of runs (workloads x models x sizes x rubies x repetitions) in
    # the order they will run. Each repetition is one block holding every arm
    # once, shuffled with a recorded seed, so slow drift of the machine falls on
    # every model and Ruby alike and --seed replays the same order.
    #
    # A results header records the matrix by its recipe (the entries, the
    # Rubies' names, the repetitions, the seed and a shard), which builds the
    # same runs again, and a digest of those runs, which says it did; files
    # from before the recipe list every run instead, and still read.
    class Matrix
      # A recipe that no longer builds the runs its digest names.
      Mismatch = Class.new(StandardError)
      # What a recipe of the wrong shape raises as it is built.
      DAMAGED = [KeyError, TypeError, ArgumentError, NoMethodError, UsageError].freeze

      attr_reader :seed, :runs, :recipe, :shard

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
        recipe = {"entries" => entries.map { |e| e.to_h.transform_keys(&:to_s) }, "rubies" => rubies, "reps" => reps}
        new(seed: seed, runs: runs, recipe: JSON.parse(JSON.generate(recipe)))
      end

      # The matrix a header's plan records: its runs listed (files from before
      # the recipe), or built again from its recipe, then checked against its
      # digest (Mismatch when they differ).
      def self.from_h(hash)
        return new(seed: hash.fetch("seed"), runs: hash.fetch("runs").map { |h| Plan::RunSpec.from_h(h) }) unless hash.key?("recipe")

        matrix = from_recipe(hash)
        unless matrix.digest == hash["digest"]
          raise Mismatch, "its header's plan recipe builds other runs than those it recorded (digest " \
            "#{matrix.digest[0, 19]}..., recorded #{hash["digest"].to_s[0, 19]}...)"
        end
        matrix
      end

      # The matrix a recipe builds; one of DAMAGED when it builds none, or
      # more runs than a command line may plan (Plan::Size.count!).
      def self.from_recipe(hash)
        recipe = hash.fetch("recipe")
        reps = recipe.fetch("reps")
        raise ArgumentError, "reps #{reps.inspect}" unless reps.is_a?(Integer) && reps.positive?

        entries = recipe.fetch("entries").map { |e| Plan::Entry.new(**e.transform_keys(&:to_sym)) }
        rubies = recipe.fetch("rubies")
        shard = hash["shard"] && Plan::Shard.parse("#{hash["shard"].fetch("index")}/#{hash["shard"].fetch("count")}")
        Plan::Size.count!(entries, rubies: rubies.size, reps: reps, shards: shard ? shard.count : 1)
        whole = build(entries: entries, rubies: rubies, reps: reps, seed: hash.fetch("seed"))
        shard ? whole.slice(shard) : whole
      end

      # The runs a header's plan names, as RunSpecs (none when it names none
      # or its recipe cannot be built): for what reads the plan without
      # running it (a report's notes, merge).
      def self.planned(hash)
        return [] unless hash.is_a?(Hash)
        return Array(hash["runs"]).grep(Hash).map { |h| Plan::RunSpec.from_h(h) } unless hash.key?("recipe")

        from_recipe(hash).runs
      rescue *DAMAGED
        []
      end

      def initialize(seed:, runs:, recipe: nil, shard: nil)
        @seed = seed
        @runs = runs
        @recipe = recipe
        @shard = shard
      end

      # This matrix's runs in shard's slice, in their order.
      def slice(shard) = Matrix.new(seed: seed, runs: shard.select(runs), recipe: recipe, shard: shard)

      # What makes two plans the same runs in the same order.
      def digest
        sha = Digest::SHA256.new
        runs.each { |spec| sha << spec.id << "\n" }
        "sha256:#{sha.hexdigest}"
      end

      # As a results header records it: the recipe when there is one.
      def to_h
        return {"seed" => seed, "runs" => runs.map(&:to_h)} unless recipe

        {"seed" => seed, "recipe" => recipe, **(shard ? {"shard" => {"index" => shard.index, "count" => shard.count}} : {}),
         "size" => runs.size, "digest" => digest}
      end
    end
  end
end
