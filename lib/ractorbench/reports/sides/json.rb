# frozen_string_literal: true

require "json"
require_relative "../../reports"

module Ractorbench
  module Reports
    module Sides
      # `report --by ruby --format json`: for programs. The sides, then per
      # workload and size each model's row (every figure `report --format
      # json` gives: speedup, speedup_ci, samples, messages_time, ...) on
      # each side, null where a side did not run it.
      module Json
        module_function

        def render(sbs)
          JSON.pretty_generate(
            "by" => sbs.by,
            "sides" => sbs.descriptions.map { |label, text| {"name" => label, "description" => text} },
            "panels" => sbs.panels.map do |panel|
              {"workload" => panel.workload, "params" => panel.params, "workers" => panel.workers, "messages" => panel.messages,
               "ruby" => panel.ruby, "models" => panel.lines.map do |line|
                 {"model" => line.model, "sides" => sbs.labels.zip(line.cells).to_h { |label, row| [label, row&.to_h] }}
               end}
            end
          ) + "\n"
        end
      end

      Reports.register("json", Json, of: :sides)
    end
  end
end
