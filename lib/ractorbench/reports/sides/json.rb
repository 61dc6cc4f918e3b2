# frozen_string_literal: true

require "json"
require_relative "../../reports"
require_relative "../parts/disturbance"

module Ractorbench
  module Reports
    module Sides
      # `report --by ruby --format json`: for programs. The sides, then per
      # workload and size each model's row (every figure `report --format
      # json` gives: speedup, speedup_ci, samples, messages_time, ...) on
      # each side, null where a side did not run it. Disturbed runs: each
      # side's and each model's per side (Parts::Disturbance), the
      # warnings, and "inconclusive" (null, or why no verdict is given).
      module Json
        module_function

        def render(sbs)
          JSON.pretty_generate(
            "by" => sbs.by,
            "sides" => sbs.descriptions.zip(sbs.sides).map do |(label, text), side|
              {"name" => label, "description" => text, **Parts::Disturbance.side(side)}
            end,
            "inconclusive" => Parts::Disturbance.inconclusive(sbs.inconclusive), "warnings" => sbs.cautions,
            "panels" => sbs.panels.map do |panel|
              {"workload" => panel.workload, "params" => panel.params, "workers" => panel.workers, "messages" => panel.messages,
               "ruby" => panel.ruby, "models" => panel.lines.map { |line| model(sbs, line) }}
            end
          ) + "\n"
        end

        def model(sbs, line)
          {"model" => line.model, "sides" => sbs.labels.zip(line.cells).to_h { |label, row| [label, row&.to_h] },
           "disturbed" => sbs.labels.zip(line.groups).to_h { |label, group| [label, group && Parts::Disturbance.group(group)] }}
        end
      end

      Reports.register("json", Json, of: :sides, extension: "json")
    end
  end
end
