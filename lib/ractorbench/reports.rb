# frozen_string_literal: true

require_relative "errors"

module Ractorbench
  # Output formats, one file each: reports/*.rb render an Analysis (the
  # `report` and `run` commands), reports/compare/*.rb render a Comparison
  # (`compare`), reports/sides/*.rb an Analysis::SideBySide (`report --by`).
  # A new format is a new file that calls Reports.register; pieces several
  # formats share live in reports/parts/.
  module Reports
    KINDS = {analysis: "reports", comparison: "reports/compare", sides: "reports/sides"}.freeze
    FOR = {comparison: " for compare", sides: " for report --by"}.freeze
    @formats = Hash.new { |h, k| h[k] = {} }

    class << self
      def register(name, renderer, of: :analysis)
        @formats[of][name] = renderer
      end

      def fetch(name, of: :analysis)
        load_formats
        @formats[of].fetch(name) do
          raise UsageError, "unknown format #{name.inspect}#{FOR[of]}; choose one of: #{names(of: of).join(", ")}"
        end
      end

      def names(of: :analysis)
        load_formats
        @formats[of].keys.sort
      end

      private

      def load_formats
        KINDS.each_value { |dir| Dir[File.join(__dir__, dir, "*.rb")].sort.each { |f| require f } }
      end
    end
  end
end
