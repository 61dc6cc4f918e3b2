# frozen_string_literal: true

require_relative "../stats/descriptive"
require_relative "../stats/median_interval"
require_relative "../stats/bootstrap"

module Ractorbench
  class Analysis
    # The messaging workload's runs as rates: messages (one-way) or round
    # trips per second, each run's count over its messages-only time, the
    # median with its 95% interval per configuration, and each model's rate
    # over the fastest model's at the same shape, payload, size and Ruby
    # (a bootstrap interval of the ratio of medians, paired by repetition):
    # absolute rates belong to one machine, the ratios travel.
    module Analysis::MessageRates
      WORKLOAD = "messaging"

      # A configuration's median rate, its 95% interval (low and high nil
      # below 6 runs), std dev and std dev relative to the mean.
      Rate = Struct.new(:median, :low, :high, :stddev, :relative_spread, keyword_init: true)
      # Its median rate over the fastest model's, with the bootstrap's
      # interval; for the fastest model itself only estimate (1.0).
      Ratio = Struct.new(:estimate, :low, :high, :fastest, keyword_init: true)
      # One configuration in every human format's terms; rate and
      # of_fastest nil where no run succeeded.
      Row = Struct.new(:shape, :payload, :workers, :messages, :ruby, :model, :runs, :unit, :variant, :unsupported,
        :disturbed, :failed, :rate, :of_fastest, keyword_init: true)

      module_function

      # One Row a configuration, grouped by panel and Ruby, the fastest first.
      def rows(analysis)
        groups = analysis.groups.select { |g| g.workload == WORKLOAD }
        groups.group_by { |g| [g.params_label, g.workers, g.messages, g.ruby] }.sort_by { |(label, w, m, ruby), _| [label, w, m, ruby.to_s] }
          .flat_map { |_, panel| panel_rows(panel) }
      end

      def panel_rows(groups)
        measured = groups.map { |g| [g, rates(g)] }
        fastest, fastest_rates = measured.reject { |_, r| r.empty? }.max_by { |_, r| Stats::Descriptive.new(r.values).median }
        measured.map { |g, r| row(g, r, fastest && (g.equal?(fastest) ? nil : [fastest, fastest_rates])) }
          .sort_by { |r| [r.rate ? -r.rate.median : Float::INFINITY, r.model] }
      end

      # {rep => messages per second} of the runs the figures come from.
      def rates(group)
        count = group.workers.to_i * group.messages.to_i
        group.values("rep").zip(group.values("messages_time")).each_with_object({}) do |(rep, time), out|
          out[rep] = count / time if time&.positive?
        end
      end

      def row(group, rates, reference)
        params = group.params || {}
        shape = params["shape"].to_s
        row = Row.new(shape: shape, payload: params["payload"].to_s, workers: group.workers, messages: group.messages,
          ruby: group.ruby, model: group.model, runs: rates.size, unit: unit(shape), variant: group.ok_runs.first&.variant,
          unsupported: group.unsupported_reason, disturbed: group.all_disturbed?, failed: group.failed_runs.map(&:reason).uniq)
        return row if rates.empty?

        row.rate = rate(rates)
        row.of_fastest = reference ? ratio(rates, *reference, group) : Ratio.new(estimate: 1.0)
        row
      end

      def rate(rates)
        interval = Stats::MedianInterval.for(rates.values)
        summary = Stats::Descriptive.new(rates.values)
        Rate.new(median: summary.median, low: interval.low, high: interval.high, stddev: summary.stddev,
          relative_spread: summary.relative_spread)
      end

      def ratio(rates, fastest, fastest_rates, group)
        interval = Stats::Bootstrap.ratio_of_medians(rates, fastest_rates, label: "#{group.label} / #{fastest.label}")
        Ratio.new(estimate: interval.estimate, low: interval.low, high: interval.high, fastest: fastest.model)
      end

      def unit(shape) = (shape == "one-way") ? "msg/s" : "rt/s"
    end
  end
end
