# frozen_string_literal: true

require_relative "../analysis"
require_relative "row"
require_relative "ops_per_second"
require_relative "comparison"

module Ractorbench
  class Analysis
    # `report --by ruby` (or machine): each model's speedup over serial on
    # each side, side by side, per workload and size - "did ractors get
    # better from 3.4 to 4.0?" at a glance. The sides are compare's
    # (Comparison::Sides); each cell is that side's Analysis::Row, so every
    # figure is the one `report` prints for it, with its n and spread.
    class Analysis::SideBySide
      # One workload, size (and, by machine, Ruby): a line per model.
      Panel = Struct.new(:workload, :params, :workers, :messages, :ruby, :lines, keyword_init: true) do
        def title = Plan::Configuration.title(workload, params)
      end

      # One model across the sides: cells[i] is the Row of sides[i], or nil
      # where that side did not run it.
      Line = Struct.new(:model, :cells, keyword_init: true)

      attr_reader :by, :sides, :panels

      # by: "ruby" or "machine"; built: Comparison::Sides::Built.
      def initialize(by, built)
        @by = by
        @sides = [built.baseline, *built.others]
        rows = @sides.map do |side|
          side.groups.reject { |g| Analysis::OpsPerSecond.group?(g) }.to_h { |g| [key(g), Analysis::Row.for(g, side.header)] }
        end
        @panels = build(rows)
        @analyses = built.analyses
      end

      def labels = sides.map(&:label)

      # The headers' descriptions of each side: a Ruby's description, or a
      # machine's CPU, cores and OS.
      def descriptions
        sides.map do |side|
          text = if by == "ruby"
            Array(side.header["rubies"]).find { |r| r["name"] == side.label }&.dig("info", "description")
          else
            m = side.header["machine"] || {}
            rubies = Array(side.header["rubies"]).map { |r| r["name"] }.join(", ")
            "#{m["cpu_model"]}, #{m["usable_cores"]} usable of #{m["cores"]} cores, #{m["os"]}; Rubies: #{rubies}"
          end
          [side.label, text]
        end
      end

      # Every side's models computed serial's results.
      def agree? = @analyses.all? { |analysis, _| analysis.digest_check.agree? }

      def analyses = @analyses.map(&:first)

      private

      def key(group)
        [group.workload, group.params_label, group.workers, group.messages, (group.ruby if by == "machine"), group.model]
      end

      def build(rows)
        keys = rows.flat_map(&:keys).uniq
        keys.group_by { |k| k.take(5) }.sort_by { |(workload, params, workers, messages, ruby), _| [workload, params.to_s, workers.to_i, messages.to_i, ruby.to_s] }
          .map do |(workload, params, workers, messages, ruby), members|
            models = members.map(&:last).uniq.sort_by { |m| [(m == Analysis::BASELINE) ? 0 : 1, m] }
            lines = models.map { |m| Line.new(model: m, cells: rows.map { |r| r[[workload, params, workers, messages, ruby, m]] }) }
            Panel.new(workload: workload, params: params, workers: workers, messages: messages, ruby: ruby, lines: lines)
          end
      end
    end
  end
end
