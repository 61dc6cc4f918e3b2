# frozen_string_literal: true

require_relative "sweep_plan"
require_relative "../base/plural"

module Ractorbench
  module Advisor
    # The sweep before it starts: what runs, how much work a run does, and
    # about how long it takes.
    module SweepAnnouncement
      module_function

      def lines(runs:, models:, counts:, items:, reps:, seconds_per_item:)
        plan = SweepPlan
        lines = ["Sweep: #{models.join(", ")} at W=#{counts.join(",")}; #{items} items a run " \
          "(#{items / counts.max} per worker at W=#{counts.max})",
          "  #{Plural.count(reps, "run")} a point, #{runs} runs in all, each a fresh process: " \
          "#{plan.about(plan.estimate(runs, items, seconds_per_item))}"]
        thin = plan.thin(items, counts)
        unless thin.empty?
          lines << "  note: at W=#{thin.join(",")} a worker gets fewer than #{plan::MIN_PER_WORKER} items, so one slow " \
            "item can leave the others idle; give --items #{plan::MIN_PER_WORKER * counts.max} or more"
        end
        lines
      end
    end
  end
end
