# frozen_string_literal: true

require_relative "../reports/parts/units"
require_relative "../plan/entry"
require_relative "../plan/matrix"
require_relative "try_findings"

module Ractorbench
  module Advisor
    # How far `try` sweeps and how much work each run does.
    module SweepPlan
      # Runs of each model and worker count, and each run's time limit (the
      # check's too), when not asked for.
      DEFAULT_REPS = 6
      DEFAULT_TIMEOUT = 60.0

      # Serial time a run aims at when --items is not given: long enough that
      # starting workers is a small part of it, short enough that a sweep of
      # every model, worker count and repetition takes well under a minute.
      TARGET_SECONDS = 0.25
      MAX_ITEMS = 100_000
      # Every worker count up to this, then doublings.
      DENSE_UP_TO = 8
      # Items each worker gets at the largest worker count, at least: with
      # fewer, one slow item leaves the other workers idle for much of a run.
      MIN_PER_WORKER = 3
      # For the time estimate: a fresh Ruby, the harness and the user's file
      # per run, and the driver's handling of each item's result.
      RUN_COST = 0.15
      ITEM_COST = 20e-6

      module_function

      # 1, 2, ... up to twice the usable cores (past the cores, more workers
      # only help work that waits); doublings plus the core count itself
      # when that would be a long list.
      def worker_counts(usable_cores)
        limit = 2 * [usable_cores.to_i, 1].max
        return (1..limit).to_a if limit <= DENSE_UP_TO

        doublings = [1]
        doublings << doublings.last * 2 while doublings.last * 2 < limit
        (doublings + [usable_cores.to_i, limit]).uniq.sort
      end

      # [items, why]: the requested count, or enough for TARGET_SECONDS of
      # serial work, rounded up so that every worker count divides it (each
      # run's workers x messages is then the same items, so every point of
      # the sweep computes the same thing).
      def items(requested, seconds_per_item, counts)
        step = counts.reduce(1) { |a, b| a.lcm(b) }
        if requested
          n = round_up(requested, step)
          return [n, (n == requested) ? "--items" : "--items #{requested}, rounded up to a multiple of every worker count"]
        end

        per_item = Reports::Parts::Units.duration(seconds_per_item, space: " ")
        wanted = seconds_per_item.to_f.positive? ? (TARGET_SECONDS / seconds_per_item).ceil : MAX_ITEMS
        return [MAX_ITEMS / step * step, "the most a run takes: #{per_item} per item measured; --items to change"] if wanted >= MAX_ITEMS

        n = round_up([wanted, MIN_PER_WORKER * counts.max].max, step)
        [n, format("about %gs of serial work at the %s per item measured; --items to change", TARGET_SECONDS, per_item)]
      end

      def round_up(n, step) = ((n + step - 1) / step) * step

      # The plan's entries: serial (the baseline) ignores the worker count,
      # so it is measured once, every count's baseline; the others at each
      # count, the same items split among the workers.
      def entries(baselines, others, counts, items, params)
        [Plan::Entry.new(workload: "try", models: baselines, configs: [[1, items]], params: params),
          Plan::Entry.new(workload: "try", models: others, configs: counts.map { |w| [w, items / w] }, params: params)]
      end

      # How a results file's item count was chosen, from what it recorded
      # (the check's time per item, the sweep's worker counts), or nil when
      # `requested` (--items) would not have chosen it.
      def recorded_items_note(analysis, requested)
        try = TryFindings.from(analysis.header.try)
        counts = Plan::Matrix.planned(analysis.header.plan).reject { |r| analysis.baseline?(r.model) }.map(&:workers).uniq.sort
        return if counts.empty?

        items, note = items(requested, try.preflight&.seconds_per_item, counts)
        note if items == try.items
      end

      # The worker counts at which each worker gets fewer than MIN_PER_WORKER
      # items (only --items can ask for that).
      def thin(items, counts) = counts.select { |w| items / w < MIN_PER_WORKER }

      # Seconds a sweep of `runs` runs takes at most: every run as long as a
      # serial one (models that are faster only shorten it).
      def estimate(runs, items, seconds_per_item)
        runs * (RUN_COST + items * (seconds_per_item.to_f + ITEM_COST))
      end

      # "under 10 s", "about 40 s or less", "about 3 min or less".
      def about(seconds)
        return "under 10 s" if seconds < 10
        return format("about %d s or less", (seconds / 10.0).round * 10) if seconds < 90

        format("about %d min or less", (seconds / 60.0).round)
      end
    end
  end
end
