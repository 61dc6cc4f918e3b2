# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # The baseline every speedup is measured against: one thread, no handoff.
    module Serial
      extend Harness::Model
      model "serial", "every job in turn on the main thread (the baseline; single in How Fast are Ractors?)", family: "serial",
        baseline: true

      def self.run(workload, jobs, _workers)
        jobs.map { |job| workload.work(job) }
      end
    end
  end
end
