# frozen_string_literal: true

module Ractorbench
  class Analysis
    # How each run spread its jobs over its workers (every pooled model
    # records worker_jobs). A run in which a worker did nothing while another
    # did two or more measured how the model handed out work, not what
    # parallelism gives: its speedup is flagged, never silently shown.
    module Analysis::WorkSpread
      SEVERAL = 2

      module_function

      def idle_worker?(counts)
        counts.is_a?(Array) && counts.size > 1 && counts.all?(Integer) && counts.min.zero? && counts.max >= SEVERAL
      end

      # "idle_worker_runs": how many runs left a worker idle (nil when no run
      # recorded its spread), and one such run's jobs per worker.
      def row(group)
        recorded = group.values("worker_jobs").grep(Array)
        return {"idle_worker_runs" => nil, "idle_worker_jobs" => nil} if recorded.empty?

        idle = recorded.select { |counts| idle_worker?(counts) }
        {"idle_worker_runs" => idle.size, "idle_worker_jobs" => idle.first}
      end
    end
  end
end
