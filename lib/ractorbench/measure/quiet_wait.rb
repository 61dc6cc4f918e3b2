# frozen_string_literal: true

require_relative "interference"
require_relative "../plan/number_list"

module Ractorbench
  module Measure
    # --wait-quiet: before a run, wait until the rest of the machine has been
    # idle for a moment, but never longer than the bound: a machine that
    # never calms down still gets measured, and the run is then marked
    # disturbed.
    class QuietWait
      WINDOW = 0.25
      QUIET_WINDOWS = 3
      QUIET_CORES = 0.10
      DEFAULT_BOUND = 60.0

      attr_reader :bound

      # The option, shared by run, the tour and try: --wait-quiet[=SECONDS].
      def self.add_option(parser, &chosen)
        parser.on("--wait-quiet [SECONDS]", "before each run, wait until other programs are idle (at most SECONDS, " \
          "default #{DEFAULT_BOUND.to_i})") do |seconds|
          chosen.call(new(seconds.nil? ? DEFAULT_BOUND : Plan::NumberList.positive_float("--wait-quiet", seconds)))
        end
      end

      def initialize(bound, interference: Interference.new)
        @bound = bound
        @interference = interference
      end

      # Seconds waited.
      def call
        started = now
        quiet = 0
        previous = @interference.sample
        return 0.0 unless previous

        while quiet < QUIET_WINDOWS && now - started < @bound
          sleep(WINDOW)
          current = @interference.sample
          quiet = (@interference.others_cores(previous, current) < QUIET_CORES) ? quiet + 1 : 0
          previous = current
        end
        now - started
      end

      private

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
