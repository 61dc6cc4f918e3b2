# frozen_string_literal: true

require_relative "preflight"
require_relative "static_scan"
require_relative "ractor_rewrite"
require_relative "fixed_copy"
require_relative "check_record"
require_relative "../base/errors"

module Ractorbench
  module Advisor
    # Every problem in one check: the check in a real ractor stops at a
    # problem it cannot get past on its own (state work changes, a class
    # variable, a define_method block, ...); the candidate the static pass
    # found at that line is then fixed in the check's own copy of the files
    # (never the user's) and the check runs again on the copy, until no
    # problem is left or LIMIT rounds have run. Only what a ractor actually
    # refused is a problem; the copy is the fix `try --fix` writes.
    class RactorRounds
      LIMIT = 12
      BLOCKING = %w[constant raised lazy_load].freeze

      attr_reader :copy, :scan

      def initialize(target:, file:, module_name:, timeout:)
        @target = target
        @file = File.expand_path(file)
        @module = module_name
        @timeout = timeout
        @scan = StaticScan.new(@file)
        @copy = FixedCopy.new(@scan.sources, @file)
        @fixed = {}
      end

      # The first check's record with every round's problems in it, in the
      # order of the code, and how the rounds went.
      def call(first)
        problems = {}
        round = first
        rounds = 1
        stopped = limited = nil
        loop do
          blockers = Array(round.ractor_problems).select { |p| blocking?(p, round) }
          before = @copy.rewrites.size
          stopped = blockers.find { |p| !bypass(p) }
          problems = keyed(problems, round)
          break if blockers.empty? || stopped

          if rounds >= LIMIT
            stopped = blockers.first
            limited = true
            break
          end
          round = begin
            Preflight.new(target: @target, file: @file, module_name: @module, timeout: @timeout,
              sources: @copy.sources, ractor_only: true).call
          rescue UsageError => e
            stopped = undo(blockers, before, e.message)
            break
          end
          rounds += 1
        end
        @copy.add_lines(Array(round.ractor_fix.lines)) if round.ractor_fix
        first.with(ractor_problems: ordered(problems.values), ractor_rounds: rounds,
          ractor_stopped_at: stopped&.key || (first.ractor_stopped_at if rounds == 1),
          ractor_fix: round.ractor_fix || first.ractor_fix, ractor_candidates: @scan.candidates.size,
          ractor_limit: (LIMIT if limited), ractor_checked_copy: (round.ractor_checked if rounds > 1))
      end

      private

      # The copy with this round's fixes did not load: they are not
      # mechanical after all, and the rounds end at the first of them.
      def undo(blockers, before, why)
        @copy.rewrites.pop(@copy.rewrites.size - before)
        fixed = blockers.select(&:mechanical)
        fixed.each do |p|
          p.mechanical = nil
          p.manual = "the check's copy with its mechanical fix did not load (#{why})"
        end
        fixed.first || blockers.first
      end

      # A problem the check did not get past: no remedy of its own, or the
      # one it stopped at (a remedy that did not hold).
      def blocking?(problem, round)
        return false unless problem.stage == "work" && BLOCKING.include?(problem.kind)

        !problem.remedy || problem.key == round.ractor_stopped_at
      end

      # Fixes the candidate behind the problem in the check's copy; false
      # when there is none or its fix is not mechanical (the rounds stop).
      def bypass(problem)
        candidate = candidate_for(problem)
        return false unless candidate
        return false if @fixed.key?(candidate) # fixed once and refused again: the fix does not hold

        rewrite = RactorRewrite.for(candidate, @scan.sources)
        problem.candidate = CandidateFacts.new(kind: candidate.kind, name: candidate.name, owner: candidate.owner,
          defined_at: candidate.line && candidate.at)
        @fixed[candidate] = rewrite
        if rewrite.check_only?
          problem.manual = rewrite.why_not
        elsif rewrite.mechanical?
          problem.mechanical = rewrite.how
        else
          problem.manual = rewrite.why_not
          return false
        end
        @copy.add(rewrite)
        true
      end

      # The candidate the static pass found that this refusal is about.
      def candidate_for(problem)
        message = problem.error&.message.to_s
        here = @scan.candidates.select { |c| c.uses.any? { |u| "#{u.file}:#{u.line}" == problem.where } }
        source = problem.source.to_s
        if problem.kind == "constant"
          info = problem.constant || ConstantFacts.new
          @scan.candidates.find { |c| c.kind == "constant" && c.name == info.constant && owner?(c, info.owner) }
        elsif (name = message[/global variables? (\$\S+)/, 1])
          @scan.candidates.find { |c| c.kind == "global" && c.name == name.delete_suffix(",") }
        elsif message.match?(/instance variables/)
          here.find { |c| c.kind == "ivar" && source.include?(c.name) }
        elsif message.match?(/class variables/)
          here.find { |c| c.kind == "cvar" && source.include?(c.name) }
        elsif problem.kind == "lazy_load"
          here.find { |c| c.kind == "lazy_load" && !@fixed.key?(c) } || @scan.candidates.find do |c|
            c.kind == "lazy_load" && (constant = c.detail&.autoload) && source.match?(/\b#{constant}\b/)
          end
        elsif problem.error&.class_name == "Ractor::UnsafeError"
          method = problem.unsafe_method.to_s.split(".").last
          here.find { |c| c.kind == "c_method" && c.name.split(".").last == method } || here.find { |c| c.kind == "c_method" }
        elsif message.match?(/un-shareable Proc/)
          defined = @scan.candidates.select { |c| c.kind == "define_method" }
          defined.reject! { |c| @fixed.key?(c) }
          defined.find { |c| source.match?(/\b#{Regexp.escape(c.name)}\b/) } || defined.find { |c| c.name == "work" }
        end
      end

      def owner?(candidate, owner) = candidate.owner.to_s == owner.to_s || (candidate.owner.to_s.empty? && owner == "Object")

      # One entry per problem: a later round's problem at the same line with
      # the same error is another one when the static pass matched it to
      # another candidate (two define_method helpers called on one line).
      def keyed(known, record)
        Array(record.ractor_problems).each do |p|
          seen = known[p.key]
          p.key = "#{p.key} (#{p.candidate.name})" if seen && p.candidate && seen.candidate != p.candidate
          known[p.key] ||= p
        end
        known
      end

      # In the order of the code: file by file as loaded, line by line.
      def ordered(problems)
        order = @scan.files
        problems.sort_by.with_index do |p, i|
          path, line = p.where.to_s.match(/\A(.*):(\d+)\z/)&.captures
          [order.index(path) || order.size, line.to_i, i]
        end
      end
    end
  end
end
