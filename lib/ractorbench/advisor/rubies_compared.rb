# frozen_string_literal: true

require "stringio"
require_relative "../analysis/comparison"
require_relative "../analysis/comparison/sides"
require_relative "../reports/compare/cells"
require "shellwords"

module Ractorbench
  module Advisor
    # `try --ruby A --ruby B`: after a try on each Ruby, each model on each
    # Ruby against the first, as `compare` tests them (Mann-Whitney, Holm),
    # at the most workers both swept.
    class RubiesCompared
      ALPHA = 0.05
      WORDS = {faster: "faster", slower: "slower"}.freeze

      # paths: the results files, the first Ruby's first.
      def initialize(paths)
        @paths = paths
        built = Analysis::Comparison::Sides.files(paths, first_run: "auto", err: StringIO.new)
        @comparison = Analysis::Comparison.new(baseline: built.baseline, others: built.others, metric: "messages_time",
          alpha: ALPHA, key_fields: built.key_fields)
      end

      def lines
        base = ruby_name(@comparison.baseline)
        head = "Which Ruby: each model's time on each Ruby against #{base}'s, at the most workers both swept " \
          "(Mann-Whitney, Holm-adjusted over #{@comparison.comparisons}):"
        told = @comparison.againsts.flat_map do |ag|
          last_rows(ag.rows).map { |r| "  #{named(r).model} W=#{named(r).workers}: #{told(r, base, ruby_name(ag.side))}" }
        end
        [head, *told, "Every configuration, compared:", *code_lines]
      end

      # The command to paste, on a line of its own: never wrapped.
      def code_lines = ["    #{["ractorbench", "compare", *@paths].shelljoin}"]

      def to_s = lines.join("\n") + "\n"

      private

      def named(row) = @comparison.named(row.key)

      # Each model's row at its most workers.
      def last_rows(rows) = rows.group_by { |r| named(r).model }.map { |_, list| list.max_by { |r| named(r).workers.to_i } }

      def told(row, base, other)
        cells = Reports::Compare::Cells
        times = "#{cells.median(row.a_ci)} on #{base}, #{cells.median(row.b_ci)} on #{other}"
        verdict = case row.verdict
        when :faster, :slower
          "#{cells.percent(row.change).delete_prefix("+").delete_prefix("-")} #{WORDS.fetch(row.verdict)} on #{other} " \
            "(Holm p #{cells.p(row.p_holm)}, n #{row.test.n1}+#{row.test.n2})"
        when :same then "no detectable change (n #{row.test.n1}+#{row.test.n2})"
        when :too_few then "too few runs to tell (n #{row.test.n1}+#{row.test.n2})"
        when :disturbed then "not judged: too many runs disturbed by other programs"
        else "no test possible"
        end
        "#{times}: #{verdict}"
      end

      def ruby_name(side)
        side.header&.rubies&.first&.name || side.label
      end
    end
  end
end
