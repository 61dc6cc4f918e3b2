# frozen_string_literal: true

require_relative "finding"
require_relative "load_race"
require_relative "problem_facts"

module Ractorbench
  module Advisor
    # A problem the check met running work in threads side by side, the
    # first calls released together (harness/try/threads_pass.rb), that one
    # item at a time did not show: a thread-safety bug.
    class ThreadsProblem
      attr_reader :headline

      def initialize(facts, preflight)
        @facts = facts
        @preflight = preflight
        @threads = facts.threads || 2
      end

      def finding
        case @facts.kind
        when "differs" then differs
        when "crashed" then crashed
        else raised
        end
      end

      private

      def raised
        error = @facts.error || ErrorFacts.new
        @headline = "it fails in threads side by side"
        race = LoadRace.at(@facts.where, @preflight)
        Finding.new(what: "work(item #{@facts.index}) raised #{error.class_name}: #{error.message.to_s.lines.first&.strip} " \
                          "with #{@threads} threads running it at once; one item at a time it does not",
          where: @facts.where || @preflight.work_location, source: @facts.where ? @facts.source : nil,
          why: race&.why || "threads share the module's state, and the first calls ran at the same time: state built " \
               "on first use (`@table ||= ...`, filled in steps) or a scratch object shared between calls races",
          fix: race&.fix || "build shared state at load time, before any thread starts (e.g. at the end of the file), " \
               "or guard it with a Mutex; keep per-call state in local variables")
      end

      def differs
        @headline = "it returns different results in threads"
        Finding.new(what: "item #{@facts.index}: one at a time work returned #{@facts.serial}, in #{@threads} " \
                          "threads #{@facts.in_threads}",
          where: @preflight.work_location,
          why: "the result depends on which thread computes it (Thread.current, thread-locals) or on state the " \
               "threads share",
          fix: "return only what follows from the item")
      end

      def crashed
        @headline = "it crashes in threads"
        Finding.new(what: "the Ruby process running work in threads #{@facts.how}", where: nil,
          why: "a C extension (or Ruby itself) failed with several threads calling it",
          fix: "this code is not thread-safe: use processes")
      end
    end
  end
end
