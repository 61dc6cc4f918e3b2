# frozen_string_literal: true

require_relative "lasting_state"
require_relative "fiber_wait"
require_relative "recommendation"
require_relative "../reports/parts/units"

module Ractorbench
  module Advisor
    # What `try --check` says after the diagnoses: whether the work follows
    # the contract and which models cannot run it, how far each part of the
    # check got, and what its state and fiber probes found.
    class CheckSummary
      WIDTH = 100

      def initialize(file, check, diagnoses)
        @file = file
        @check = check
        @diagnoses = diagnoses
      end

      def lines
        models = @diagnoses.map(&:subject)
        verdict = models.empty? ? "every model can run it" : "#{models.join(" and ")} cannot run it as written (see above)"
        head = "#{@file}: #{@check.module_name}.work follows the contract"
        lines = [(head.size + verdict.size + 2 <= WIDTH) ? "#{head}; #{verdict}" : "#{head}\n  #{verdict}"]
        lines << "  checked: #{checked}"
        state = LastingState.line(@check)
        lines << "  #{state}" if state
        lines << "  fibers: #{FiberWait.cause(@check)}" if FiberWait.blocked?(@check, waits: Recommendation::WAITS)
        lines
      end

      # The exit code: 1 when a model cannot run the work.
      def code = @diagnoses.empty? ? 0 : 1

      private

      # How far each part of the check got, first use first.
      def checked
        parts = []
        if (rounds = @check.ractor_rounds.to_i) > 1
          n = @check.ractor_checked_copy.to_i
          parts << (n.zero? ? "in a ractor (#{rounds} rounds; no item got through the last)" : "#{n} items in a ractor (#{rounds} rounds)")
        elsif (n = @check.ractor_checked)
          parts << (n.zero? ? "in a ractor (no item got through)" : "#{n} items in a ractor")
        end
        parts << "#{@check.threads_checked} in #{@check.threads_count} threads" if @check.threads_checked
        first = parts.empty? ? "" : "first #{parts.join(", ")}; then "
        "#{first}#{@check.sampled} serially (#{Reports::Parts::Units.duration(@check.seconds_per_item, space: " ")} each)"
      end
    end
  end
end
