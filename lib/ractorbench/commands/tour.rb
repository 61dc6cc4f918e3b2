# frozen_string_literal: true

require "tmpdir"
require_relative "run"
require_relative "../reports/parts/answer"

require_relative "../cli"

module Ractorbench
  module Commands
    # `ractorbench` with no command: every suite that takes part, scaled
    # down, in one collection and one table - a first look at this machine.
    # It chooses what to run itself, so run's plan options (--suite, -w,
    # --scale, ...) are refused, never silently ignored.
    class Tour < Run
      # Without --reps, repetitions until each median's interval is within
      # ±5% or this many seconds are spent: a first look with intervals, in
      # under two minutes.
      BUDGET = 90.0

      def initialize(argv, out:, err:)
        # Before parsing: OptionParser would take -w for --wide.
        refused = argv.take_while { |a| a != "--" }.map { |a| a.split("=").first }.find { |a| plan_switches.include?(a) }
        if refused
          raise UsageError, "the tour does not take #{refused}: it runs every experiment at its own small scale; " \
            "use `ractorbench run #{refused} ...` to choose what runs"
        end
        super
        @plan.adaptive ||= Plan::AdaptiveReps.new(BUDGET) unless @plan.reps || @resume
      end

      # What the tour printed at its end (the summary, then the answer), from
      # its results file alone: `report FILE` (the summary) of a tour's
      # file prints it again, this command rebuilt from the command line the
      # file records.
      def ending(analysis) = closing(analysis)

      private

      def parser
        @parser ||= CLI::Parser.new(banner, exit_codes: EXIT_CODES) { |o| collection_options(o) }
      end

      def banner = "Usage: ractorbench [tour] [options]   (a short tour: every experiment scaled down, one table;\n" \
        "without --reps, --reps auto:#{BUDGET.to_i}: repetitions until each median is within ±5% or #{BUDGET.to_i} s are spent)"

      # run's options that choose the plan: -w, --workloads, --suite, ...
      def plan_switches
        OptionParser.new { |o| plan_options(o) }.top.list.flat_map { |sw| sw.long + sw.short }
      end

      def command_name = "tour"

      def plan_entries(catalog)
        entries = suites.flat_map(&:tour_entries)
        entries.each do |entry|
          catalog.workload(entry.workload)
          entry.models.each { |m| catalog.model(m) }
        end
      end

      def repetitions
        return @plan.adaptive.initial if @plan.adaptive

        @plan.reps || suites.map { |s| s.tour.fetch(:reps) }.max
      end

      def suites
        Plan::Suite.all.select(&:tour)
      end

      # The tour chooses its sizes and models: advice to change them is no use.
      def refused_options = plan_switches.grep(/\A--/)

      # The summary, then the answer: each experiment's fastest model.
      def closing(analysis)
        experiments = suites.map do |suite|
          [suite.title, suite.tour_entries.map { |e| [e.workload, Plan::Configuration.params_label(e.params)] }]
        end
        answer = Reports::Parts::Answer.lines(analysis, experiments)
        return super if answer.empty?

        terminal = parser.terminal(@out)
        closing = Reports::Parts::Answer.closing(analysis)
        super + "\n" + terminal.present(answer.join("\n")) + "\n" + (closing.empty? ? "" : "\n#{terminal.present(closing.join("\n"))}\n")
      end

      def default_output
        File.join(Dir.tmpdir, "ractorbench-tour-#{Time.now.strftime("%Y%m%d-%H%M%S")}-#{Process.pid}.jsonl")
      end
    end

    CLI.register("tour", Tour, "a short tour: every experiment scaled down, one table (the default)")
  end
end
