# frozen_string_literal: true

require_relative "catalog"

module Ractorbench
  module Plan
    # The models' traits as a results header recorded them (Catalog#traits),
    # so analysis and reports know what each model is without loading it
    # and never by its name. A file written before a trait was recorded
    # gets it derived from what the file has: a model's family as the
    # models installed here declare it; the baseline, before it was a trait,
    # was the serial family's model; ceilings and checks as installed here.
    class ModelTraits
      def self.of(header) = new(header || {})

      def initialize(header)
        installed = Catalog.default
        @families = header["families"] || installed.families
        @shapes = header["shapes"] || installed.shapes
        @baselines = header["baselines"] || installed.baselines.merge(@families.select { |_, f| f == "serial" }.transform_values { true })
        @ceilings = header["ceilings"] || installed.ceilings
        @vouched_by = header["vouched_by"] || installed.vouched_by
        @installed = installed
      end

      # serial, thread, process, ractor or fiber (Harness::Model::FAMILIES).
      def family(model) = @families[model] || @installed.families[model]

      # How the model hands out work ("split", "batches", ...).
      def shape(model) = @shapes[model] || @installed.shapes[model]

      # Speedups are measured against it; its digest is the reference.
      def baseline?(model) = @baselines[model] == true

      # {split model => [the per-job models it is the ceiling of]}.
      attr_reader :ceilings

      # The checks of `try` that must pass for the model to run a user's work.
      def vouched_by(model) = Array(@vouched_by[model])
    end
  end
end
