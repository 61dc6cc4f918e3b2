# frozen_string_literal: true

require_relative "matrix"
require_relative "../base/errors"

module Ractorbench
  module Plan
    # A named experiment: which workloads, models and sizes to run and how many
    # repetitions, as one of the seeds set it up. One file each in suites/.
    class Plan::Suite
      attr_reader :name, :description, :reps, :options

      @all = {}

      class << self
        def define(name, description, reps:, **options, &block)
          suite = new(name, description, reps, options)
          block.call(suite)
          @all[name] = suite
        end

        def all
          load_definitions
          @all.values
        end

        def fetch(name)
          load_definitions
          @all.fetch(name) do
            raise UsageError, "unknown suite #{name.inspect}; known: #{@all.keys.sort.join(", ")} (see `ractorbench list`)"
          end
        end

        private

        def load_definitions
          Dir[File.join(__dir__, "suites", "*.rb")].sort.each { |f| require f }
        end
      end

      def initialize(name, description, reps, options)
        @name = name
        @description = description
        @reps = reps
        @options = options
        @entries = []
      end

      # scale: how --scale F shrinks this entry; by default the messages.
      def entry(workload:, models:, configs:, params: {}, scale: nil)
        @entries << [Plan::Entry.new(workload: workload, models: models, configs: configs, params: params), scale]
      end

      # The scaled-down version `ractorbench` (the tour) runs, if the suite
      # takes part: {scale: F, reps: N}, and configs: [[W, M], ...] to run
      # instead of the suite's (each entry's first, when it has several).
      def tour
        options[:tour]
      end

      # The write-up's title, for an answer a person reads.
      def title = options[:title] || name

      def tour_entries
        configs = tour[:configs]
        entries(tour.fetch(:scale)).map do |entry|
          next entry unless configs && entry.configs.size > 1

          Plan::Entry.new(**entry.to_h, configs: configs)
        end
      end

      def entries(scale = 1.0)
        @entries.map do |entry, scaler|
          next entry if (scale - 1.0).abs < Float::EPSILON

          scaler ? scaler.call(entry, scale) : scale_messages(entry, scale)
        end
      end

      private

      def scale_messages(entry, scale)
        configs = entry.configs.map { |w, m| [w, [(m * scale).round, 1].max] }
        Plan::Entry.new(**entry.to_h, configs: configs)
      end
    end
  end
end
