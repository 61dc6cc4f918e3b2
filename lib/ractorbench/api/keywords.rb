# frozen_string_literal: true

require_relative "../base/errors"
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
        list = words(keyword, values, "a list of names").map(&:strip).reject(&:empty?)
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

      # What a keyword takes, by type, checked before any check of its text:
      # a wrong type is a UsageError naming the keyword, never a
      # NoMethodError or TypeError from deep inside, nor a number taken for
      # a path or a file descriptor (File.open(5) opens fd 5).

      # A path: a String or anything with to_path (Pathname).
      def path(keyword, value)
        return value.to_path.to_s if value.respond_to?(:to_path)
        return value if value.is_a?(String) && !value.empty?

        raise UsageError, "#{keyword}: must be a path (a String or Pathname), got #{shown(value)}"
      end

      # One word or name: a String or a Symbol.
      def text(keyword, value)
        return value.to_s if (value.is_a?(String) || value.is_a?(Symbol)) && !value.to_s.empty?

        raise UsageError, "#{keyword}: must be a String, got #{shown(value)}"
      end

      # Words: one, or a list of them (Strings or Symbols).
      def words(keyword, values, wanted)
        list = values.is_a?(Array) ? values : [values]
        return list.map(&:to_s) if list.all? { |v| v.is_a?(String) || v.is_a?(Symbol) }

        raise UsageError, "#{keyword}: needs #{wanted} (Strings), got #{shown(values)}"
      end

      # Paths: one, or a list of them.
      def paths(keyword, values) = (values.is_a?(Array) ? values : [values]).map { |v| path(keyword, v) }

      def flag(keyword, value)
        return value if [true, false, nil].include?(value)

        raise UsageError, "#{keyword}: must be true or false, got #{shown(value)}"
      end

      # A Hash of names to values ({"n" => 24}).
      def table(keyword, value, example)
        return value if value.is_a?(Hash)

        raise UsageError, "#{keyword}: must be a Hash, e.g. #{keyword}: #{example}, got #{shown(value)}"
      end

      # A value as a one-line message shows it: a long one cut, its class said.
      def shown(value)
        text = value.inspect
        (text.size > 60) ? "#{text[0, 40]}... (a #{value.class})" : text
      end

      # A check whose error names no option ("unknown suite ..."): its
      # error led by the keyword, unless it names it already.
      def named(keyword)
        yield
      rescue UsageError => e
        raise if e.message.start_with?("#{keyword}:")

        raise UsageError, "#{keyword}: #{e.message}"
      end

      # A command's error that starts by naming the option ("--ruby 3.9: no
      # such Ruby"): that name only becomes the keyword, not a command it
      # prints for pasting.
      def leading(option, keyword)
        yield
      rescue UsageError => e
        raise unless e.message.start_with?("#{option} ")

        raise UsageError, e.message.sub(option, "#{keyword}:")
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
