# frozen_string_literal: true

require_relative "problem_facts"

module Ractorbench
  module Advisor
    # Threads that failed at the line where the check found code loaded on
    # first use (for ractors: Digest::SHA256, an autoload, a require inside
    # work). Threads that first use it at once load it at once, and loading
    # is seldom thread-safe: Ruby 3.1 defines Digest::SHA256 a moment before
    # it sets the class up, and a thread that meets it in between fails
    # ("Digest::Base cannot be directly inherited in Ruby"), now and then. The
    # ractors fix printed above loads it when the file loads, before any
    # thread starts, so it ends this race too.
    class LoadRace
      # The user's line at the end of a failed run's reason, as
      # harness/try/adapter.rb writes it: "(/path/work.rb:12, item 3)".
      REASON_AT = /\((?<where>[^()\s]+:\d+), item \d+\)\s*\z/

      # where: "path:line" in the user's code. nil when the check found
      # nothing loaded on first use there.
      def self.at(where, preflight)
        problem = where && Array(preflight.ractor_problems).find { |p| p.kind == "lazy_load" && p.where == where }
        problem && new(problem, preflight)
      end

      def self.in_reason(reason, preflight) = at(reason.to_s[REASON_AT, "where"], preflight)

      def initialize(problem, preflight)
        @constants = Array(problem.remedy&.constants)
        @require = problem.lazy&.require
        loaded = [*@constants, @require].compact
        @code = Array(preflight.ractor_fix&.lines).map { |l| l.sub(/\s+#.*\z/, "") }
          .select { |l| loaded.any? { |name| l.include?(name) } }
        @file = File.basename(problem.where.sub(/:\d+\z/, ""))
      end

      def why
        loaded = if @constants.any?
          "#{@constants.join(", ")} #{(@constants.size > 1) ? "are" : "is"}"
        else
          @require ? "what `require #{@require.inspect}` loads is" : "code this line uses is"
        end
        "#{loaded} loaded on first use, and several threads ran this line first at once: one met it half loaded"
      end

      def fix
        lines = @code.empty? ? "" : " (#{@code.map { |l| "`#{l}`" }.join(", ")} at the end of #{@file})"
        "the fix above for ractors#{lines} loads it when the file loads, before any thread starts: it ends this race too"
      end
    end
  end
end
