# frozen_string_literal: true

require_relative "../analysis"
require_relative "../analysis/sweep"
require_relative "../plan/matrix"
require_relative "diagnosis"
require_relative "report"
require_relative "try_findings"

module Ractorbench
  module Advisor
    # What `try` concludes, read back from its results file alone (the header
    # keeps the check's findings, the plan and the items): why a model could
    # not run the work, the sweep, the screen and the recommendation. The try
    # command, the HTML report and Ractorbench.try all read it this way, so
    # they cannot disagree.
    class Outcome
      Context = Struct.new(:file, :preflight, :items, :items_note, :ruby_description, :usable_cores, :reps, :path,
        :patterns, keyword_init: true)

      def self.try?(analysis) = !analysis.header.try.nil?

      attr_reader :analysis

      # file: as the user wrote it (default: the path recorded); items_note:
      # how the item count was chosen, when known.
      def initialize(analysis, file: nil, items_note: nil)
        @analysis = analysis
        @try = TryFindings.from(analysis.header.try)
        @file = file
        @items_note = items_note
      end

      def preflight = @try.preflight || raise(KeyError, "the header's try has no preflight")

      def excluded = @try.excluded || {}

      def module_name = @try.module_name

      def items = @try.items

      def panel = @panel ||= Analysis::Sweep.panels(@analysis, min_counts: 1).first

      # The check's findings, then what the sweep's own failures reveal.
      def diagnoses
        @diagnoses ||= begin
          known = Diagnosis.all(preflight)
          known + failure_diagnoses(known)
        end
      end

      def context
        header = @analysis.header
        Context.new(file: @file || @try.file, preflight: preflight, items: items,
          items_note: @items_note || "as recorded in the results file",
          ruby_description: header.rubies.first&.info&.description,
          usable_cores: header.machine.usable_cores, reps: reps, path: @analysis.contents.path,
          patterns: @try.patterns || {})
      end

      def report(width: 100)
        Report.new(context: context, analysis: @analysis, panel: panel, diagnoses: diagnoses, excluded: excluded, width: width)
      end

      # The recommended model's code with the user's names, [title, code]
      # (Report#snippet), or nil.
      def snippet = (recommendation.empty? ? nil : report.snippet)

      # The recommendation, one line per point (unwrapped, with no "- "),
      # or [] when there is no sweep to judge (nothing ran, or the models
      # disagreed).
      def recommendation
        return [] unless panel && @analysis.digest_check.agree?

        report.recommendation.lines.map(&:chomp).each_with_object([]) do |line, points|
          if line.start_with?("  - ") || points.empty?
            points << line.sub(/\A  - /, "")
          else
            points[-1] = "#{points.last} #{line.strip}"
          end
        end
      end

      private

      def reps = Plan::Matrix.planned(@analysis.header.plan).map(&:rep).max

      # A model that failed in the sweep on an item the check did not try.
      def failure_diagnoses(known)
        return [] if known.any? { |d| d.check == "ractor" }

        reason = @analysis.runs.find { |r| @analysis.family(r.model) == "ractor" && r.reason.to_s.include?("Ractor::") }&.reason
        diagnosis = reason && Diagnosis.from_failure(reason, preflight)
        diagnosis ? [diagnosis] : []
      end
    end
  end
end
