# frozen_string_literal: true

module Ractorbench
  module Harness
    # The messages a workload's `validate` returns for common mistakes, in
    # one wording: what is wrong, what was given, and an example that works.
    module ParamCheck
      module_function

      def integer(params, key, example, min: nil)
        value = params[key]
        return "#{key} must be an integer, got #{value.inspect}; e.g. --param #{key}=#{example}" unless value.is_a?(Integer)

        "#{key} must be at least #{min}, got #{value}; e.g. --param #{key}=#{example}" if min && value < min
      end

      def one_of(params, key, choices)
        value = params[key].to_s
        "#{key} must be one of #{choices.join(", ")}, got #{params[key].inspect}" unless choices.include?(value)
      end
    end
  end
end
