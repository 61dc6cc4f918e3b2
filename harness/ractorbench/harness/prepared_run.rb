# frozen_string_literal: true

module Ractorbench
  module Harness
    # A run made ready to measure. The child times only `call` (it returns
    # every job's result); what a workload builds before it (a ring's nodes)
    # and tears down after it (`close`) stays outside the messages-only time.
    # `metrics` go into the run record once `call` has returned.
    class PreparedRun
      attr_reader :metrics

      def initialize(metrics = {}, close: nil, &measured)
        @metrics = metrics
        @close = close
        @measured = measured
      end

      def call
        @measured.call
      end

      def close
        @close&.call
      end
    end

    # Raised while preparing a run that this workload cannot do under this
    # model; the child reports it as "not supported", not as a failure.
    # scope: "workload" (this workload has no such variant: "not measured"),
    # or nil (what this Ruby lacks: "not supported on this Ruby").
    class Unsupported < StandardError
      attr_reader :scope

      def initialize(message = nil, scope: "workload")
        super(message)
        @scope = scope
      end
    end
  end
end
