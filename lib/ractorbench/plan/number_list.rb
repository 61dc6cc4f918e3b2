# frozen_string_literal: true

require_relative "../base/errors"
require_relative "../base/numbers"

module Ractorbench
  module Plan
    # Parses the numbers users type on the command line, with errors that say
    # which option was wrong and what it wanted.
    module Plan::NumberList
      module_function

      # Names (workloads, models): a comma-separated list with at least one.
      def names(option, text)
        list = text.to_s.split(",").map(&:strip).reject(&:empty?)
        raise UsageError, "#{option} needs a comma-separated list of names, got #{text.inspect}; see `ractorbench list`" if list.empty?

        list
      end

      def positive_integers(option, text)
        list = text.to_s.split(",").map(&:strip)
        raise UsageError, "#{option} needs a comma-separated list of positive integers, got #{text.inspect}" if list.empty?

        list.map { |item| positive_integer(option, item) }
      end

      def positive_integer(option, text)
        value = Integer(text.to_s.delete("_"), 10)
        raise ArgumentError unless value.positive?

        bounded(option, value, text)
      rescue ArgumentError, TypeError
        raise UsageError, "#{option} must be a positive integer, got #{Numbers.typed(text)}"
      end

      # A run order's seed: 0 or more (the plan takes it modulo 2**32).
      def seed(option, text)
        value = Integer(text.to_s, 10)
        raise ArgumentError if value.negative?

        bounded(option, value, text)
      rescue ArgumentError, TypeError
        raise UsageError, "#{option} must be a non-negative integer, got #{Numbers.typed(text)}"
      end

      def positive_float(option, text)
        value = Float(text)
        raise ArgumentError unless value.positive?

        bounded(option, value, text)
      rescue ArgumentError, TypeError
        raise UsageError, "#{option} must be a positive number, got #{Numbers.typed(text)}"
      end

      # Float("1e400") is Infinity and Integer takes any number of digits:
      # no option's number goes on unless it is finite and under Numbers::LIMIT.
      def bounded(option, value, text)
        return value if Numbers.bounded?(value)

        raise UsageError, "#{option} must be a finite number under 10^18, got #{Numbers.typed(text)}"
      end
    end
  end
end
