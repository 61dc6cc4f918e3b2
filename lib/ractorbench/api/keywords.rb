# frozen_string_literal: true

require_relative "../errors"
require_relative "../plan/number_list"
require_relative "../measure/quiet_wait"

module Ractorbench
  module API
    # Ractorbench.run's and .try's keywords checked as their command's
    # options are, by the same checks, each error the one line the option
    # gives with the keyword named instead (`workers: must be a positive
    # integer, got 0`, as `--workers must be a positive integer, got "0"`).
    module Keywords
      module_function

      def names(keyword, values)
        list = Array(values).map { |v| v.to_s.strip }.reject(&:empty?)
        raise UsageError, "#{keyword}: needs a list of names, got #{values.inspect}; see `ractorbench list`" if list.empty?

        list
      end

      def positive_integers(keyword, values)
        list = Array(values)
        raise UsageError, "#{keyword}: needs a list of positive integers, got #{values.inspect}" if list.empty?

        list.map { |value| positive_integer(keyword, value) }
      end

      def positive_integer(keyword, value) = Plan::NumberList.positive_integer("#{keyword}:", value)

      def positive_float(keyword, value) = Plan::NumberList.positive_float("#{keyword}:", value)

      def seed(value) = Plan::NumberList.seed("seed:", value)

      # wait_quiet: true (the default bound), or the most seconds to wait.
      def quiet_wait(value)
        return if value.nil? || value == false

        Measure::QuietWait.new((value == true) ? Measure::QuietWait::DEFAULT_BOUND : positive_float(:wait_quiet, value))
      end

      # A check written for the option's text (Plan::Shard.parse, ...): its
      # error names the keyword where it named the option.
      def as(option, keyword)
        yield
      rescue UsageError => e
        raise UsageError, e.message.gsub(option, "#{keyword}:")
      end

      # What a results file's header records as asked: the call itself, with
      # the keywords given.
      def call(method, *arguments, **keywords)
        given = keywords.reject { |_, v| v.nil? || v == false || (v.respond_to?(:empty?) && v.empty?) }
        "Ractorbench.#{method}(#{(arguments + given.map { |k, v| "#{k}: #{v.inspect}" }).join(", ")})"
      end
    end
  end
end
