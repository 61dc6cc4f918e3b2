# frozen_string_literal: true

module Ractorbench
  module Advisor
    # How each pooled model spread the items over its workers, from the
    # per-worker job counts a run records ("worker_jobs"): shown for every
    # model and worker count, and called out when a worker was left idle or
    # ran more than twice its share, since that model's speedup then says
    # little about the model.
    class WorkerSpread
      # blocked: {model => why} for models whose spread has a known cause
      # (fibers on a Ruby whose scheduler blocks on work's wait).
      def initialize(runs, blocked: {})
        @runs = runs.select { |r| r.ok? && counts(r) && r.workers.to_i > 1 }
        @blocked = blocked
      end

      def lines
        return [] if @runs.empty?

        by_model = @runs.group_by(&:model).sort
        shown = by_model.map do |model, runs|
          "  #{model}: " + runs.group_by { |r| r.workers.to_i }.sort.map { |w, list| "W=#{w} #{typical(list)}" }.join(", ")
        end
        # UNEVEN lines are whole: try's screen wraps its prose to the terminal.
        ["Items per worker (the run with the median spread):", *shown, *uneven(by_model)]
      end

      private

      def counts(run)
        list = run.worker_jobs
        (list.is_a?(Array) && list.all?(Integer)) ? list : nil
      end

      # The run whose busiest worker's share is the median one.
      def typical(runs)
        list = runs.map { |r| counts(r).sort.reverse }.sort_by(&:first)[runs.size / 2]
        (list.size <= 4) ? list.join("+") : "#{list.min}..#{list.max} over #{list.size}"
      end

      def uneven(by_model)
        by_model.flat_map do |model, runs|
          runs.group_by { |r| r.workers.to_i }.sort.filter_map do |w, list|
            bad = list.select { |r| unfair?(counts(r)) }
            next if bad.empty?

            because = @blocked[model] ? "the first worker took the items while work held the thread: #{@blocked[model]}" :
              "its speedup there says little about #{model}"
            "UNEVEN: #{model} W=#{w} left a worker idle or gave one over twice its share in #{bad.size} of " \
              "#{list.size} runs (e.g. #{counts(bad.first).join("+")}): #{because}"
          end
        end
      end

      def unfair?(list)
        total = list.sum
        return false if total < list.size

        list.min.zero? || list.max > 2.0 * total / list.size
      end
    end
  end
end
