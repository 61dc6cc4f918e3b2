# frozen_string_literal: true

module Ractorbench
  module Harness
    # A worker's reply: the result, or the error that stopped it, so that a
    # failing job ends the run with its reason instead of hanging the
    # collector while it waits for a result that never comes.
    module ResultMessage
      class WorkerError < StandardError; end

      def self.call
        [:ok, yield]
      rescue => e
        [:error, "#{e.class}: #{e.message}"]
      end

      def self.unwrap(message)
        tag, payload = message
        raise WorkerError, payload unless tag == :ok

        payload
      end
    end
  end
end
