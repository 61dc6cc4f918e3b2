# frozen_string_literal: true

require_relative "paths"

module Ractorbench
  module Advisor
    # State that outlives a call of work, as the check found it by running
    # work (Harness::Try::LastingState): each change named with where it is,
    # and what it means for the models that run work in copies of it.
    module LastingState
      # The families whose workers each change a copy of the state of their own.
      COPIES = %w[process ractor].freeze
      FAMILY_WORDS = {"process" => "forked workers", "ractor" => "ractor workers"}.freeze

      module_function

      def changes(preflight) = Array(preflight.lasting_state)

      # "@calls of Memo (0 → 8, memo.rb:10), Memo::CACHE (a Hash of 0 → 8, memo.rb:2)"
      def named(preflight)
        changes(preflight).map { |c| "#{c.name} (#{c.change}#{", #{Paths.short(c.where)}" if c.where})" }.join(", ")
      end

      # The check's line: what work changes that outlives the call.
      def line(preflight)
        return nil if changes(preflight).empty?

        "state: work changes state that outlives the call: #{named(preflight)}; forked processes and ractors " \
          "change their own copies of it, never this process's"
      end

      # For a recommendation of a family whose workers change copies: what
      # stays in them, and what to do.
      def reason(preflight, family)
        return nil if changes(preflight).empty? || !COPIES.include?(family)

        "work changes state that outlives the call (#{named(preflight)}): with #{FAMILY_WORDS.fetch(family)} those " \
          "changes stay in the workers and never reach the caller (a memo warms in each worker only, a counter " \
          "here stays as it was); return what the caller needs in the results, or keep the state per worker knowingly"
      end
    end
  end
end
