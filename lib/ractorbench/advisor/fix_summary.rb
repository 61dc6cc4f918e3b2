# frozen_string_literal: true

require_relative "paths"
require_relative "ractor_problem"
require_relative "text_wrap"
require_relative "../base/plural"

module Ractorbench
  module Advisor
    # What `try --fix` did: the copies written, each problem the check
    # confirmed as fixed (and how) or left to do by hand (and what to do),
    # in the order of the code.
    class FixSummary
      LOADED = {"make_shareable" => "made shareable at the end of the file, once it is complete"}.freeze

      # preflight: the check's record of the user's file (with its rounds);
      # written: {copy => original}.
      def initialize(preflight, written:, file:)
        @problems = Array(preflight.ractor_problems)
        @preflight = preflight
        @written = written
        @file = file
      end

      def fixed = @problems.select { |p| how(p) }

      def left = @problems.reject { |p| how(p) }

      def lines(width: 100)
        copies = @written.map { |copy, original| "#{Paths.short(copy)} (a copy of #{Paths.short(original)})" }
        head = "Fixed copy: #{copies.join(", ")}; #{@problems.size - left.size} of " \
          "#{Plural.count(@problems.size, "problem")} fixed mechanically; your file is unchanged"
        out = TextWrap.wrap(head, width: width, indent: "  ")
        fixed.each { |p| out.concat(item("fixed", p, how(p), width)) }
        left.each { |p| out.concat(item("left", p, manual(p), width)) }
        out
      end

      private

      # How the copy fixes it, or nil when it does not.
      def how(problem)
        return nil if problem.manual
        return problem.mechanical if problem.mechanical

        remedy = problem.remedy
        return LOADED[remedy] if remedy.is_a?(String)
        return "loaded when the file loads, in the main ractor" if remedy.is_a?(LoadRemedy)

        nil
      end

      def manual(problem)
        finding = RactorProblem.new(problem, @preflight).finding
        problem.manual || finding.fix || finding.why
      end

      def item(label, problem, text, width)
        finding = RactorProblem.new(problem, @preflight).finding
        where = finding.where ? "#{Paths.short(finding.where)} " : ""
        TextWrap.wrap("  #{label}: #{where}#{finding.short}: #{text}", width: width, indent: " " * 9)
      end
    end
  end
end
