# frozen_string_literal: true

require_relative "../reports/parts/units"
require_relative "check_record"

module Ractorbench
  module Advisor
    # What the check's fiber probe (Harness::Try::FiberProbe) saw: whether
    # this Ruby's Fiber scheduler let another fiber run while work waited.
    # When it did not, fibers cannot overlap this work on this Ruby, whatever
    # the sweep's items: the cause is the Ruby's scheduler, not the data.
    module FiberWait
      module_function

      # true when the probe saw work wait with no other fiber running.
      def blocked?(preflight, waits:)
        probe = preflight.fiber_probe
        probe.is_a?(FiberProbeFacts) && probe.overlaps == false && preflight.cpu_share.to_f < waits
      end

      def cause(preflight)
        probe = preflight.fiber_probe
        async = probe.async ? " (async #{probe.async})" : ""
        "this Ruby's Fiber scheduler#{async} does not overlap the wait in work: in the check, while work waited " \
          "#{Reports::Parts::Units.duration(probe.seconds.to_f, space: " ")} on one item, no other fiber ran"
      end

      # The reason under a recommendation that swept fibers.
      def reason(preflight, waits:)
        return nil unless blocked?(preflight, waits: waits)

        "fibers cannot help this work on this Ruby: #{cause(preflight)}; threads and processes overlap that " \
          "wait, and a Ruby whose scheduler hooks it (try --ruby) lets fibers overlap it too"
      end
    end
  end
end
