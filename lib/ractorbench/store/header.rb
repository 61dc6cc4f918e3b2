# frozen_string_literal: true

require_relative "../errors"

module Ractorbench
  module Store
    # The first line of a results file: the tool, the command, the machine,
    # the Rubies and the plan. Checked once here, so a damaged or foreign
    # header is one clear line instead of an error wherever a report looks
    # into it.
    module Header
      SHAPES = {
        "command" => [String], "machine" => [Hash], "rubies" => [Array], "plan" => [Hash],
        "seed" => [Integer], "timeout" => [Numeric], "load" => [Array], "families" => [Hash], "shapes" => [Hash],
        "baselines" => [Hash], "ceilings" => [Hash], "vouched_by" => [Hash],
        "shard" => [Hash], "merged" => [Hash], "fields" => [Array]
      }.freeze

      module_function

      def check(path, header)
        SHAPES.each do |field, types|
          next unless header.key?(field) && !header[field].nil?
          next if types.any? { |type| header[field].is_a?(type) }

          damaged(path, "its #{field} is a #{json_type(header[field])}")
        end
        rubies = header.fetch("rubies", [])
        damaged(path, "its rubies are not objects with a name") unless rubies.all? { |r| r.is_a?(Hash) && r["name"].is_a?(String) }
        runs = header.dig("plan", "runs")
        damaged(path, "its plan's runs are not a list") unless runs.nil? || runs.is_a?(Array)
        header
      end

      def damaged(path, what)
        raise UsageError, "#{path} has a damaged header (#{what}); it cannot be reported or resumed: run the collection again"
      end

      def json_type(value)
        case value
        when Hash then "JSON object"
        when Array then "JSON list"
        when String then "string"
        when Numeric then "number"
        else value.inspect
        end
      end
    end
  end
end
