# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Workloads
    # Work that costs nothing, so that what is measured is a model's own
    # machinery (starting workers, passing messages) and the harness's.
    module Noop
      extend Harness::Workload
      workload "noop", "does nothing: the cost of a model's own machinery and of the harness"

      def self.estimate(count, _params, per_call) = count * 3 * per_call

      def self.work(job)
        job
      end
    end
  end
end
