# frozen_string_literal: true

module Ractorbench
  module Reports
    module Parts
      # Why a row of a workload's own table (message rates, memory
      # scenarios) has no figures, said once under the table for every row
      # with the same reason: "PANEL/MODEL/RUBY, ...: REASON".
      module RowOutcomes
        module_function

        # name: the row's panel text.
        def not_run(rows, figures:, name:)
          rows.reject(&figures).group_by { |r| outcome(r) }.map do |why, list|
            "#{list.map { |r| "#{name.call(r)}/#{r["model"]}/#{r["ruby"]}" }.join(", ")}: #{why}"
          end
        end

        def outcome(r)
          return "not run: #{r["unsupported"]}" if r["unsupported"]
          return "FAILED: #{r["failed"].first}" if r["failed"].any?

          "no successful runs"
        end
      end
    end
  end
end
