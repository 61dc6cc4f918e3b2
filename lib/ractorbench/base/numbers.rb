# frozen_string_literal: true

module Ractorbench
  # Numbers that come from outside: a results file's JSON reads 1e400 as
  # Infinity and a 400-digit integer as itself, and an option's Float("1e400")
  # is Infinity too. Such a number, taken on, crashes a `to_i`, spreads
  # through sums and ratios, or fills a page; so every one is checked where
  # it is read, against the range it may have.
  module Numbers
    # No count, size, setting or measurement reaches this (a results file's
    # fast path reads at most 18 digits); beyond it a number is damage.
    LIMIT = 10**18

    module_function

    # Whether value is a number that is finite and under LIMIT either way.
    def bounded?(value)
      case value
      when Integer then value.abs < LIMIT
      when Float then value.finite? && value.abs < LIMIT
      else false
      end
    end

    # The first number in a parsed JSON tree that is not bounded?, as
    # [its path ("machine.cores"), the value]; nil when there is none.
    def first_unbounded(tree, path = nil)
      case tree
      when Hash then tree.each { |key, value| (found = first_unbounded(value, join(path, key))) && (return found) }
      when Array then tree.each_with_index { |value, i| (found = first_unbounded(value, join(path, i))) && (return found) }
      when Numeric then return bounded?(tree) ? nil : [path.to_s, tree]
      end
      nil
    end

    # A number as a one-line message shows it: never 400 digits.
    def shown(value)
      return value.to_s if !value.is_a?(Numeric) || bounded?(value)
      return value.to_s unless value.is_a?(Integer)

      "a number of #{value.abs.to_s.size} digits"
    end

    # What a user typed (a String, quoted) or passed to the API (as Ruby
    # shows it), as a one-line message quotes it: a long one is counted,
    # not shown ("1e400" stays, and says why: beyond a double).
    def typed(value)
      text = value.is_a?(String) ? value : value.inspect
      return (value.is_a?(String) ? text.inspect : text) if text.size <= 40

      "#{text[0, 12].inspect}... (#{text.size} characters)"
    end

    def join(path, key)
      return key.to_s unless path

      key.is_a?(Integer) ? "#{path}[#{key}]" : "#{path}.#{key}"
    end
  end
end
