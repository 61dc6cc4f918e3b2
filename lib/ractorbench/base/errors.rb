# frozen_string_literal: true

module Ractorbench
  # Bad input from the user: printed as one line, exit code 2, nothing written.
  class UsageError < StandardError; end

  # A command ends with this one line and this exit status (1 for a file
  # system error mid-collection, 128 + the signal for Ctrl-C or SIGTERM).
  class Exit < StandardError
    attr_reader :code

    def initialize(message, code)
      @code = code
      super(message)
    end
  end
end
