# frozen_string_literal: true

require_relative "../base/errors"
require_relative "../../../harness/ractorbench/harness/model"
require_relative "recommendation"

module Ractorbench
  module Advisor
    # Which models a try sweeps: serial (the baseline), the models asked for
    # or the defaults, minus those a diagnosis rules out; by default fibers
    # too when the work mostly waits.
    class ModelChoice
      # The shapes a Ruby engineer writes for a list of items: a queue for
      # threads, batches and a static split for processes and ractors. Every
      # family gets its best shapes, so the fight is fair; the seed's
      # per-message models are there to ask for (-m ractors).
      BEST_SHAPES = %w[queue batches split].freeze
      # Fibers only overlap waiting: swept when the work waits (or --fibers).
      WAITING_FAMILY = "fiber"

      # serial, then each family's best shapes, families in their declared
      # order (Harness::Model::FAMILIES), batches before a split.
      def self.default_models(catalog)
        baselines(catalog) + catalog.models
          .select { |m| BEST_SHAPES.include?(m.shape) && m.family != WAITING_FAMILY }
          .sort_by { |m| [Harness::Model::FAMILIES.index(m.family) || 99, BEST_SHAPES.index(m.shape), m.name] }.map(&:name)
      end

      # The models every sweep measures the others against (serial).
      def self.baselines(catalog) = catalog.models.select(&:baseline).map(&:name)

      # asked: the models named (-m), nil for the defaults; fibers: --[no-]fibers, nil when not given.
      def initialize(catalog, asked:, fibers:)
        @catalog = catalog
        @asked = asked
        @fibers = fibers
      end

      # [models to sweep, {model => why it is left out}].
      def call(check, diagnoses)
        wanted = (@asked || self.class.default_models(@catalog)).dup
        fibers = @catalog.models.select { |m| m.family == WAITING_FAMILY }.map(&:name)
        wanted.concat(fibers) if (@asked.nil? || @fibers) && fibers?(fibers, check)
        wanted.uniq!
        wanted.each { |m| @catalog.model(m) }
        # A failed check rules out every model it vouches for.
        ruled_out = diagnoses.to_h { |d| [d.check, "#{d.subject} #{d.headline} (see above)"] }
        excluded = wanted.filter_map { |m| (why = @catalog.model(m).vouched_by.filter_map { |c| ruled_out[c] }.first) && [m, why] }.to_h
        [(self.class.baselines(@catalog) + wanted).uniq - excluded.keys, excluded]
      end

      private

      def fibers?(fibers, check)
        if @fibers && fibers.empty?
          raise UsageError, "--fibers: no fibers model is installed here (harness/models/fibers.rb); see `ractorbench list`"
        end

        !fibers.empty? && (@fibers.nil? ? check.cpu_share.to_f < Recommendation::WAITS : @fibers)
      end
    end
  end
end
