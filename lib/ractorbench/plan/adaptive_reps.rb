# frozen_string_literal: true

require_relative "run_spec"
require_relative "../stats/median_interval"
require_relative "../base/errors"

module Ractorbench
  module Plan
    # `--reps auto[:SECONDS]`: start with the fewest repetitions a 95%
    # interval of a median needs, then add repetitions, one shuffled block at
    # a time, of every configuration whose interval is still wider than ±5%
    # of its median, until none is or the time budget is spent.
    class AdaptiveReps
      TARGET = 0.05
      DEFAULT_BUDGET = 120.0

      attr_reader :budget

      # An AdaptiveReps for "auto" or "auto:SECONDS", nil for anything else.
      def self.parse(text)
        return nil unless text.to_s.start_with?("auto")

        seconds = text.to_s.delete_prefix("auto")
        return new(DEFAULT_BUDGET) if seconds.empty?

        value = Float(seconds.delete_prefix(":")) if seconds.start_with?(":")
        raise ArgumentError unless value&.positive? && value.finite?

        new(value)
      rescue ArgumentError, TypeError
        raise UsageError, "--reps auto:SECONDS needs a positive number of seconds, e.g. --reps auto:60, got #{text.inspect}"
      end

      def initialize(budget)
        @budget = budget
      end

      def initial = Stats::MedianInterval.min_samples

      def to_s = "auto:#{format("%g", budget)}"

      # One more repetition of each configuration of analysis still wider than
      # the target, shuffled with rng; empty when every one has settled.
      # Configurations nothing succeeded in (failed, unsupported) are not retried.
      def next_block(analysis, rng)
        analysis.groups.filter_map do |group|
          next if group.ok_count.zero? || settled?(group)

          last = group.runs.max_by { |r| r.rep.to_i }
          Plan::RunSpec.from_h(last.to_h.merge("rep" => last.rep.to_i + 1))
        end.shuffle(random: rng)
      end

      def settled?(group)
        width = Stats::MedianInterval.for(group.values("messages_time")).relative_half_width
        !width.nil? && width <= TARGET
      end
    end
  end
end
