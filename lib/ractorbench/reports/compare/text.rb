# frozen_string_literal: true

require "terminal-table"
require_relative "../../reports"
require_relative "cells"
require_relative "../../analysis/comparison/cautions"

module Ractorbench
  module Reports
    module Compare
      # `compare`'s default: one table per side compared with the baseline,
      # a geometric-mean row, then the cautions and, when nothing could be
      # judged, the INCONCLUSIVE line.
      module Text
        module_function

        def render(comparison, cautions)
          tables = comparison.againsts.map do |ag|
            rows = ag.rows.map { |r| Cells.row(comparison, r) }
            rows += [:separator, Cells.geomean(comparison, ag.geomean)] if ag.geomean
            table = Terminal::Table.new(title: "A = #{comparison.baseline.label}, B = #{ag.side.label}",
              headings: Cells.headings(comparison, ag), rows: rows)
            first = Cells.key_columns(comparison).size
            (first...(first + 7)).each { |i| table.align_column(i, :right) }
            table.to_s
          end
          [*tables, Cells.legend(comparison), *cautions.map { |c| "WARNING: #{c}" },
            Analysis::Comparison::Cautions.inconclusive(comparison)].compact.join("\n") + "\n"
        end
      end

      Reports.register("text", Text, of: :comparison, terminal: true, wrap: true, default: true)
    end
  end
end
