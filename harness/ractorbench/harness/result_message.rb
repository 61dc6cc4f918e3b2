# frozen_string_literal: true

require_relative "error_text"

module Ractorbench
  module Harness
    # A worker's reply: the result, or the error that stopped it, so that a
    # failing job ends the run with its reason instead of hanging the
    # collector while it waits for a result that never comes.
    module ResultMessage
      class WorkerError < StandardError; end

      # Any exception, described so that describing it cannot fail (ErrorText).
      def self.call
        [:ok, yield]
      rescue Exception => e # rubocop:disable Lint/RescueException -- a worker that dies silently hangs the run
        [:error, ErrorText.of(e)]
      end

      def self.unwrap(message)
        tag, payload = message
        raise WorkerError, payload unless tag == :ok

        payload
      end
    end
  end
end
