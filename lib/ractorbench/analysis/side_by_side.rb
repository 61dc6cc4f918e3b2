# frozen_string_literal: true

require_relative "../analysis"
require_relative "row"
require_relative "ops_per_second"
require_relative "comparison"
require_relative "comparison/cautions"
require_relative "warnings"

module Ractorbench
  class Analysis
    # `report --by ruby` (or machine): each model's speedup over serial on
    # each side, side by side, per workload and size - "did ractors get
    # better from 3.4 to 4.0?" at a glance. The sides are compare's
    # (Comparison::Sides); each cell is that side's Analysis::Row, so every
    # figure is the one `report` prints for it, with its n and spread;
    # disturbed runs are left out, warned of, and a side mostly disturbed
    # makes the whole INCONCLUSIVE, as in `compare --by`.
    class Analysis::SideBySide
      # One workload, size (and, by machine, Ruby): a line per model.
      Panel = Struct.new(:workload, :params, :workers, :messages, :ruby, :lines, keyword_init: true) do
        def title = Plan::Configuration.title(workload, params)
      end

      # One model across the sides: cells[i] is the Row of sides[i], or nil
      # where that side did not run it; groups[i] the Group it was made of.
      Line = Struct.new(:model, :cells, :groups, keyword_init: true) do
        # Side i's Group when its runs were too disturbed to give a verdict
        # (Group#too_disturbed?): its figures are shown, marked inconclusive.
        def disturbed(i) = groups[i]&.then { |g| g if g.too_disturbed? }

        # Whether the model is a baseline (as its sides' headers record).
        def baseline? = groups.compact.any?(&:baseline_model?)
      end

      attr_reader :by, :sides, :panels

      # by: "ruby" or "machine"; built: Comparison::Sides::Built.
      def initialize(by, built)
        @by = by
        @sides = [built.baseline, *built.others]
        groups = @sides.map { |side| side.groups.reject { |g| Analysis::OpsPerSecond.group?(g) }.to_h { |g| [key(g), g] } }
        rows = @sides.zip(groups).map { |side, by_key| by_key.transform_values { |g| Analysis::Row.for(g, side.header) } }
        @panels = build(rows, groups)
        @analyses = built.analyses
      end

      # Each collection's (or machine's) disturbed runs, as `report` warns
      # of them: how many, by what, left out of the figures, what to do.
      def cautions
        @analyses.filter_map do |analysis, label|
          warning = Analysis::Warnings.disturbed(analysis)
          "#{label}: #{warning.message}" if warning
        end
      end

      # Some cell's runs were too disturbed to give a verdict (Line#disturbed).
      def disturbed? = panels.any? { |panel| panel.lines.any? { |line| line.groups.each_index.any? { |i| line.disturbed(i) } } }

      # The INCONCLUSIVE line when most runs of a side were disturbed
      # (Comparison::Side#busy?, as `compare --by` decides), else nil.
      def inconclusive = Analysis::Comparison::Cautions.busy(sides.select(&:busy?))

      def labels = sides.map(&:label)

      # The headers' descriptions of each side: a Ruby's description, or a
      # machine's CPU, cores and OS.
      def descriptions
        sides.map do |side|
          text = if by == "ruby"
            side.header.ruby(side.label)&.info&.description
          else
            m = side.header.machine
            rubies = side.header.rubies.map(&:name).join(", ")
            "#{m.cpu_model}, #{m.usable_cores} usable of #{m.cores} cores, #{m.os}; Rubies: #{rubies}"
          end
          [side.label, text]
        end
      end

      # Every side's models computed serial's results.
      def agree? = @analyses.all? { |analysis, _| analysis.digest_check.agree? }

      def analyses = @analyses.map(&:first)

      private

      # [panel, model]: by machine a panel is one Ruby's; by Ruby, every Ruby's.
      def key(group)
        [(by == "machine") ? group.panel : group.panel.without_ruby, group.model]
      end

      def build(rows, groups)
        keys = rows.flat_map(&:keys).uniq
        baselines = groups.flat_map(&:values).select(&:baseline_model?).map(&:model).uniq
        keys.group_by(&:first).sort_by { |panel, _| panel.sort_key }.map do |panel, members|
          models = members.map(&:last).uniq.sort_by { |m| [baselines.include?(m) ? 0 : 1, m] }
          lines = models.map do |m|
            key = [panel, m]
            Line.new(model: m, cells: rows.map { |r| r[key] }, groups: groups.map { |g| g[key] })
          end
          Panel.new(**panel.to_h, lines: lines)
        end
      end
    end
  end
end
