# frozen_string_literal: true

module Ractorbench
  # Bad input from the user: printed as one line, exit code 2, nothing written.
  class UsageError < StandardError; end
end
