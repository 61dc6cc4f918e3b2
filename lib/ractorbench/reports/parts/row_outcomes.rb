# frozen_string_literal: true

module Ractorbench
  module Reports
    module Parts
      # Why a row of a workload's own table (message rates, memory
      # scenarios) has no figures, said once under the table for every row
      # with the same reason: "PANEL/MODEL/RUBY, ...: REASON". A row is an
      # Analysis::MessageRates::Row or MemoryScenarios::Row: both answer
      # model, ruby, unsupported, failed and disturbed.
      module RowOutcomes
        module_function

        # name: the row's panel text.
        def not_run(rows, figures:, name:)
          rows.reject(&figures).group_by { |r| outcome(r) }.map do |why, list|
            "#{list.map { |r| "#{name.call(r)}/#{r.model}/#{r.ruby}" }.join(", ")}: #{why}"
          end
        end

        # Rows whose every run was disturbed show their figures all the same
        # (as the figures table does); one line says how many.
        def disturbed(rows)
          count = rows.count(&:disturbed)
          return [] if count.zero?

          ["Every run of #{count} of these #{rows.size} configurations was disturbed by other programs: their figures " \
            "are shown, but they are no verdict (see the warnings)."]
        end

        def outcome(r)
          return "not run: #{r.unsupported}" if r.unsupported
          return "FAILED: #{r.failed.first}" if r.failed.any?

          "no successful runs"
        end
      end
    end
  end
end
