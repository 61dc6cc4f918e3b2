# frozen_string_literal: true

require_relative "../plan/size"
require_relative "../plan/capacity"
require_relative "../reports/parts/units"

module Ractorbench
  module Advisor
    # A try's sizes checked as `run` checks its own, before the sweep starts:
    # a run far beyond the timeout or a sweep over a day (Plan::Size), more
    # workers than the machine can spare (Plan::Capacity).
    module SweepLimits
      module_function

      # Raises UsageError naming the option to lower.
      def check!(plan, catalog, target, items:, seconds_per_item:, timeout:, title:)
        each = seconds_per_item.to_f
        run = items * each
        lower = "lower --items#{" (the most a run here takes is #{(Plan::Size::FAR * timeout / each).floor})" if each.positive?}"
        Plan::Size.run!(run, timeout: timeout, what: "--items #{items}", how: "#{items} items at " \
          "#{Reports::Parts::Units.duration(each, space: " ")} each, as the check timed them", lower: lower)
        Plan::Size.total!(plan.runs.size * [run, timeout].min, runs: plan.runs.size, lower: "lower --items, --reps or --workers")
        Plan::Capacity.check!(plan.runs, catalog, [target], title: title)
      end
    end
  end
end
