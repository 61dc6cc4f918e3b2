# frozen_string_literal: true

module Ractorbench
  module Reports
    module Parts
      # Disturbed runs as `compare --format json` and `report --by --format
      # json` give them, one shape for both: a configuration's on one side
      # (an Analysis::Group), a whole side's (Comparison::Side), and why
      # nothing is judged. disturbed_runs is null where runs did not record
      # what the machine did (files from before they did).
      module Disturbance
        module_function

        def group(group)
          {"runs" => group.runs.size, "disturbed_runs" => (group.disturbed_count if group.interference_recorded?),
           "too_disturbed" => group.too_disturbed?}
        end

        def side(side)
          {"runs" => side.run_count, "disturbed_runs" => side.disturbed_count, "too_disturbed" => side.busy?}
        end

        # The INCONCLUSIVE line (Analysis::Disturbed.busy_line) as a field: null when a verdict is given.
        def inconclusive(message) = message && {"reason" => "disturbed", "message" => message}

        # "8 of 10" (or "8/10"): a group's disturbed runs of all its runs, for a table cell.
        def counted(group, between = " of ") = "#{group.disturbed_count}#{between}#{group.runs.size}"
      end
    end
  end
end
