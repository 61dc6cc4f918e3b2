# frozen_string_literal: true

require_relative "../stats/descriptive"
require_relative "../stats/median_interval"

module Ractorbench
  class Analysis
    # The memory workload's runs (ruby-bench's Ractor memory scenarios):
    # per configuration the scenario's time, the memory kept after a full
    # GC and the peak during it (both above the memory before it), each a
    # median of the runs the figures come from with its spread.
    module Analysis::MemoryScenarios
      WORKLOAD = "memory"

      # One configuration in every human format's terms; where a run
      # succeeded, time is a Stats::MedianInterval of the scenario's seconds
      # and kept_kb and peak_kb each a Stats::Descriptive.
      Row = Struct.new(:scenario, :workers, :messages, :ruby, :model, :runs, :unsupported, :disturbed, :failed, :settle,
        :time, :kept_kb, :peak_kb, keyword_init: true)

      module_function

      def rows(analysis)
        analysis.groups.select { |g| g.workload == WORKLOAD }
          .sort_by { |g| [g.params_label.to_s, g.workers, g.messages, g.ruby.to_s, g.model] }.map { |g| row(g) }
      end

      def row(group)
        params = group.params || {}
        row = Row.new(scenario: params["scenario"].to_s, workers: group.workers, messages: group.messages, ruby: group.ruby,
          model: group.model, runs: group.ok_count, unsupported: group.unsupported_reason, disturbed: group.all_disturbed?,
          failed: group.failed_runs.map(&:reason).uniq, settle: group.ok_runs.first&.memory_settle)
        return row if group.ok_count.zero?

        row.time = Stats::MedianInterval.for(group.values("messages_time").compact)
        row.kept_kb = Stats::Descriptive.new(group.values("kept_kb").compact)
        row.peak_kb = Stats::Descriptive.new(group.values("scenario_peak_kb").compact)
        row
      end
    end
  end
end
