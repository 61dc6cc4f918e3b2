# frozen_string_literal: true

require "tmpdir"
require_relative "run"

require_relative "../cli"

module Ractorbench
  module Commands
    # `ractorbench` with no command: every suite that takes part, scaled
    # down, in one collection and one table - a first look at this machine.
    class Tour < Run
      private

      def parser
        super.tap { |o| o.banner = "Usage: ractorbench [--ruby NAME=COMMAND] [--seed N] [-o FILE]   (a short tour)" }
      end

      def plan_entries(catalog)
        entries = suites.flat_map { |suite| suite.entries(suite.tour.fetch(:scale)) }
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

      def default_output
        File.join(Dir.tmpdir, "ractorbench-tour-#{Time.now.strftime("%Y%m%d-%H%M%S")}-#{Process.pid}.jsonl")
      end
    end

    CLI.register("tour", Tour, "a short tour: every experiment scaled down, one table (the default)")
  end
end
