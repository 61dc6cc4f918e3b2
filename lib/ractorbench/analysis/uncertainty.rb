# frozen_string_literal: true

require_relative "../stats/median_interval"
require_relative "../stats/bootstrap"
require_relative "../stats/outliers"
require_relative "../stats/string_keys"

module Ractorbench
  class Analysis
    # How sure we are of one configuration's figures: 95% intervals of both
    # medians and of the speedup over serial, the runs that stand out, and the
    # first run on its own. One flat hash that Analysis::Rows merges into every
    # format's row.
    module Analysis::Uncertainty
      # A median's 95% interval, as a row keeps it.
      Interval = Struct.new(:level, :low, :high, :confidence, :samples, :reason, keyword_init: true) do
        include Stats::StringKeys
      end
      # The speedup's interval (a bootstrap's), as a row keeps it.
      SpeedupInterval = Struct.new(:low, :high, :level, :paired, :reason, keyword_init: true) do
        include Stats::StringKeys
      end
      # The first successful run's times, and whether it is left out of the
      # statistics (Analysis::FirstRun), as a row keeps them.
      FirstRunTimes = Struct.new(:id, :messages_time, :whole_time, :excluded, keyword_init: true) do
        include Stats::StringKeys
      end

      module_function

      def row(group)
        {
          "messages_time_ci" => interval(group, "messages_time"),
          "whole_time_ci" => interval(group, "whole_time"),
          "cpu_utilisation_ci" => interval_of(group.sorted_cpu_utilisations),
          "speedup_ci" => speedup(group),
          "outliers" => outliers(group),
          "first_run" => first_run(group)
        }
      end

      def label(group)
        group.label
      end

      # {rep => value} of the successful runs: what the bootstrap pairs on.
      def by_rep(group, metric)
        reps = group.values("rep")
        group.values(metric).each_with_index.with_object({}) { |(v, i), h| h[reps[i] || i] = v if v }
      end

      # Both sides' values in the same repetitions' order, when both have the
      # same repetitions (what Bootstrap pairs on); nil otherwise. Runs are
      # stored in repetition order, so the columns usually line up as read.
      def pairs(base, group, metric)
        xs = base.values(metric)
        ys = group.values(metric)
        return [xs, ys] if base.values("rep") == group.values("rep") && !xs.include?(nil) && !ys.include?(nil)

        a = by_rep(base, metric)
        b = by_rep(group, metric)
        [a.values, a.keys.map { |rep| b[rep] }] if a.keys.sort == b.keys.sort
      end

      def interval(group, metric) = interval_of(group.sorted(metric))

      def interval_of(sorted)
        ci = Stats::MedianInterval.of_sorted(sorted)
        return nil if ci.n.zero?

        Interval.new(level: ci.level, low: ci.low, high: ci.high, confidence: ci.confidence, samples: ci.n, reason: ci.reason)
      end

      # The interval of baseline median / this median, over repetitions.
      def speedup(group)
        base = group.baseline
        return nil if base.nil? || base.equal?(group) || group.ok_count.zero? || base.ok_count.zero?

        label = "#{label(group)} speedup"
        # Many runs a side: the interval needs each side's times sorted
        # (already, for the row) and the pairs' quadrant correlation, not
        # {rep => time} hashes (the same times when every rep is there once).
        large = if [group, base].all? { |g| g.ok_count >= Stats::Bootstrap::LARGE_SAMPLE && g.reps_unique? }
          Stats::Bootstrap.of_large_samples(base.sorted("messages_time"), group.sorted("messages_time"), label: label,
            pairs: pairs(base, group, "messages_time"))
        end
        ci = large || Stats::Bootstrap.ratio_of_medians(by_rep(base, "messages_time"), by_rep(group, "messages_time"), label: label)
        SpeedupInterval.new(low: ci.low, high: ci.high, level: ci.level, paired: ci.paired, reason: ci.reason)
      end

      # Runs whose messages-only time has a modified z-score beyond 3.5.
      def outliers(group)
        return [] if Stats::Outliers.none?(group.sorted("messages_time"), median: group.messages_time.median)

        timed = group.values("messages_time").each_with_index.select { |v, _| v }
        Stats::Outliers.indices(timed.map(&:first), median: group.messages_time.median).map { |i| group.ok_run(timed[i].last).id }
      end

      def first_run(group)
        run = group.first_run
        return nil unless run

        FirstRunTimes.new(id: run.id, messages_time: run.messages_time, whole_time: run.whole_time,
          excluded: group.first_run_excluded?)
      end
    end
  end
end
