# frozen_string_literal: true

require_relative "paths"
require_relative "finding"
require_relative "ractor_problem"
require_relative "ractor_fix"
require_relative "threads_problem"
require_relative "check_record"
require_relative "../base/plural"

module Ractorbench
  module Advisor
    # Why a model cannot run the user's work, in the user's terms: every
    # problem the check found for it (which object, where in their code, why
    # the model refuses it) and the fix for each, or one fix for all that the
    # check made sure of. Built from the check's record (CheckRecord); fits
    # a terminal of 100 columns.
    class Diagnosis
      WIDTH = 100
      LABEL = 9 # "  where: "

      # check: the check that failed (Harness::Model::CHECKS), which rules
      # out every model it vouches for; family: the family those models
      # carry their work in, named in the diagnosis ("ractors: ...").
      attr_reader :check, :family, :headline, :findings

      # What the diagnosis rules out, in words: "ractors".
      def subject = Plural.word(2, family)

      # fix: [text, code lines] of a fix that covers the findings without one.
      def initialize(check:, family:, headline:, findings:, fix: nil, notes: [])
        @check = check
        @family = family
        @headline = headline
        @findings = findings
        @fix = fix
        @notes = notes
      end

      # The findings one after another, for a screen `width` columns wide; a
      # reason shared by consecutive findings that wait for the combined fix
      # is said once.
      def lines(width: WIDTH)
        @width = width
        out = ["#{subject}: #{headline}"]
        findings.each_with_index do |f, i|
          out.concat(field("what", f.what))
          out << clip("  where: #{at(f)}")
          following = findings[i + 1]
          out.concat(field("why", f.why)) unless f.fix.nil? && following&.why == f.why
          out.concat(field("fix", f.fix)) if f.fix
        end
        if @fix
          out.concat(field("fix", @fix.first))
          @fix.last.each { |code| out << code_line(code) }
        end
        @notes.each { |n| out.concat(field("note", n)) }
        out
      end

      # The fix's code among #lines: Ruby to paste, which a terminal must
      # not wrap.
      def code_lines(width: WIDTH)
        @width = width
        @fix ? @fix.last.map { |code| code_line(code) } : []
      end

      # "a Hash", "an Array".
      def self.a(name) = Finding.a(name)

      # Every model the check found a problem for: ractors, threads, processes.
      def self.all(preflight)
        [ractor(preflight), threads(preflight), marshal(preflight)].compact
      end

      # nil when a ractor ran the sample as the main ractor did.
      def self.ractor(preflight)
        problems = Array(preflight.ractor_problems)
        return nil if problems.empty?

        readers = problems.map { |facts| RactorProblem.new(facts, preflight) }
        findings = readers.map(&:finding)
        headline = (readers.size == 1) ? readers.first.headline : "not Ractor-safe"
        count = (problems.size > 1) ? " (#{problems.size} problems, found in one check)" : ""
        new(check: "ractor", family: "ractor", headline: "cannot run this work: #{headline}#{count}", findings: findings,
          fix: combined_fix(preflight, problems, findings), notes: stop_note(preflight, problems, findings))
      end

      def self.combined_fix(preflight, problems, findings)
        fix = preflight.ractor_fix
        return nil unless fix && !Array(fix.lines).empty?

        blocker = fix.blocked_by && problems.index { |p| p.key == fix.blocked_by }
        text = RactorFix.new(fix, preflight.file || preflight.work_location.to_s.sub(/:\d+\z/, ""),
          blocker: blocker && short(findings[blocker])).text
        [text, fix.lines]
      end

      # When the check stopped at a problem it could not get past, more may
      # follow it.
      def self.stop_note(preflight, problems, findings)
        key = preflight.ractor_stopped_at
        index = key && problems.index { |p| p.key == key || "changes #{p.key}" == key }
        return [] unless index

        blocker = problems[index]
        if (limit = preflight.ractor_limit)
          ["the check stopped after #{limit} rounds (its limit) at #{short(findings[index])}: problems past it, if any, " \
           "are not listed; `ractorbench try --fix` and a check of its copy go on from there"]
        elsif blocker.library || blocker.constant&.library
          ["the check stopped at #{short(findings[index])}, which is the library's, not your code's: " \
           "problems past it, if any, are not listed"]
        else
          ["the check could not get past #{short(findings[index])}: once that is fixed, " \
           "`ractorbench try --check` again shows whether more follow"]
        end
      end

      # A finding's object without its particulars: "constant Object::BODIES".
      def self.short(finding) = finding.short

      # nil when threads side by side computed what one item at a time did.
      def self.threads(preflight)
        problems = Array(preflight.threads_problems)
        return nil if problems.empty?

        readers = problems.map { |facts| ThreadsProblem.new(facts, preflight) }
        findings = readers.map(&:finding)
        new(check: "threads", family: "thread", headline: "cannot run this work safely: #{readers.first.headline}", findings: findings)
      end

      # nil when every sampled item and result survives Marshal.
      def self.marshal(preflight)
        facts = preflight.marshal
        return nil unless facts

        what = "#{facts.path || facts.what} (of item #{facts.index}) is #{a(facts.class_name)}"
        where = (facts.what == "result") ? preflight.work_location : (preflight.items_location || preflight.work_location)
        new(check: "marshal", family: "process", headline: "cannot run this work: its #{facts.what}s cannot be sent between processes",
          findings: [Finding.new(what: "#{what} (Marshal: #{facts.message})", where: where,
            why: "forked workers receive items and send results back with Marshal, which cannot write #{a(facts.class_name)}",
            fix: "make #{facts.what}s plain data (numbers, strings, arrays, hashes, Structs); for a class of yours, " \
                 "define marshal_dump and marshal_load")])
      end

      FAILURE = /(?<class>Ractor::\w+): (?<message>.*) \((?<path>[^()\s]+):(?<line>\d+), item (?<index>\d+)\)\z/
      # What the adapter adds to a Ractor::UnsafeError's message.
      UNSAFE_METHOD = / \(the C method (\S+)\)\z/

      # From a ractors run that failed in the sweep (on an item the check
      # did not try): the adapter put the error and the user's line in it.
      def self.from_failure(reason, preflight)
        m = FAILURE.match(reason.to_s.strip)
        return nil unless m

        source = begin
          File.foreach(m[:path]).with_index(1).find { |_, i| i == m[:line].to_i }&.first&.strip
        rescue SystemCallError, IOError
          nil
        end
        message = m[:message].sub(UNSAFE_METHOD, "")
        facts = ProblemFacts.new(stage: "work", index: m[:index].to_i, error: ErrorFacts.new(class_name: m[:class], message: message),
          where: "#{m[:path]}:#{m[:line]}", source: source, unsafe_method: m[:message][UNSAFE_METHOD, 1])
        ractor(CheckRecord.new(ractor_problems: [facts], work_location: preflight.work_location,
          shareable_proc: preflight.shareable_proc))
      end

      private

      def at(finding)
        return "(no line of your code in the backtrace)" unless finding.where

        Paths.short(finding.where) + (finding.source ? "   #{finding.source}" : "")
      end

      def width = @width || WIDTH

      # "  what:  text" wrapped at the width, continuation lines under the text.
      def field(label, text)
        words = text.to_s.split(" ")
        lines = ["  #{"#{label}:".ljust(LABEL - 2)}"]
        words.each do |word|
          if lines.last.size + word.size + 1 > width && lines.last.size > LABEL
            lines << " " * LABEL
          end
          lines[-1] += (lines.last.size > LABEL) ? " #{word}" : word
        end
        lines
      end

      # Code to copy is never cut: a comment that does not fit is left out.
      def code_line(code)
        line = "           #{code}"
        (line.size > width) ? line.sub(/ # .*\z/, "") : line
      end

      # A line of source is cut, not wrapped: its start says enough.
      def clip(line) = (line.size > width) ? "#{line[0, width - 1]}…" : line
    end
  end
end
