# frozen_string_literal: true

require_relative "../stats/median_interval"
require_relative "../stats/bootstrap"
require_relative "../stats/mann_whitney"
require_relative "../stats/holm"
require_relative "../stats/geometric_mean"
require_relative "../analysis"
require_relative "../plan/configuration"
require_relative "disturbed"

module Ractorbench
  class Analysis
    # One side against another, configuration by configuration (benchstat's
    # method): the change in median time with a bootstrap interval, a
    # Mann-Whitney p-value Holm-adjusted over every comparison made at once,
    # and "~" (no detectable change) unless that adjusted p is below alpha.
    class Analysis::Comparison
      METRICS = {"messages" => "messages_time", "whole" => "whole_time"}.freeze
      METRIC_NAMES = {"messages_time" => "messages-only time", "whole_time" => "whole-process time"}.freeze

      # What is compared: some groups of an Analysis under a label (a file, or
      # one Ruby of a file). paired: its runs share repetitions with the
      # baseline's (one collection), so the bootstrap draws them as pairs.
      # header: the results header its groups' figures are read with.
      Side = Struct.new(:label, :groups, :paired, :header, keyword_init: true) do
        # Runs other programs (or steal) disturbed, of all its runs; nil
        # when its runs did not record what the machine did.
        def disturbed_count = (groups.sum(&:disturbed_count) if groups.any?(&:interference_recorded?))
        def run_count = groups.sum { |g| g.runs.size }
        def disturbed_runs = groups.flat_map(&:runs_disturbed)

        # Most of the side's runs disturbed: what `report` calls INCONCLUSIVE
        # for a file, so none of its configurations is judged here either.
        def busy?
          return @busy if defined?(@busy)

          @busy = !disturbed_count.nil? && Analysis::Disturbed.too_many?(disturbed_count, run_count)
        end
      end

      # One configuration on both sides. busy_sides: "A" (the baseline)
      # and/or "B" when that whole side is busy?.
      Row = Struct.new(:key, :a, :b, :a_ci, :b_ci, :ratio, :ratio_ci, :test, :p_holm, :verdict, :busy_sides,
        keyword_init: true) do
        def change = ratio && ratio - 1

        # "A"/"B" => its group, for each side where this configuration had
        # too many disturbed runs (Group#too_disturbed?).
        def disturbed_sides = {"A" => a, "B" => b}.select { |_, group| group.too_disturbed? }

        # Not tested, inconclusive: too many disturbed runs in the
        # configuration on a side, or in the whole side.
        def disturbed? = !busy_sides.empty? || a.too_disturbed? || b.too_disturbed?

        def detectable? = !test.p.nil? && !disturbed?
      end

      # A configuration as the sides are matched on it, by name (#key and
      # #named): nil for a field not among the key_fields.
      Key = Struct.new(*Plan::Configuration.members, keyword_init: true)

      # All rows of one side against the baseline, and their geometric mean.
      Against = Struct.new(:side, :rows, :only_a, :only_b, :geomean, keyword_init: true)
      Geomean = Struct.new(:a, :b, :ratio, :low, :high, :count, keyword_init: true)

      attr_reader :baseline, :againsts, :metric, :alpha, :key_fields

      # key_fields: which of workload model workers messages params ruby match
      # a configuration across sides.
      def initialize(baseline:, others:, metric:, alpha:, key_fields:)
        @baseline = baseline
        @metric = metric
        @alpha = alpha
        @key_fields = key_fields
        @againsts = others.map { |side| against(side) }
        adjust!
      end

      def rows = againsts.flat_map(&:rows)

      def metric_name = METRIC_NAMES.fetch(metric)

      def comparisons = rows.count(&:detectable?)

      # Configurations with too many disturbed runs on a side to judge.
      def disturbed_rows = rows.select(&:disturbed?)

      # Nothing could be judged: every configuration was too disturbed.
      def inconclusive? = !rows.empty? && rows.all?(&:disturbed?)

      # The sides (baseline first) most of whose runs were disturbed.
      def busy_sides = [baseline, *againsts.map(&:side)].select(&:busy?)

      # The groups of every configuration compared, each once (a baseline's
      # groups are in the rows of every side compared with it).
      def compared_groups = rows.flat_map { |r| [r.a, r.b] }.uniq(&:object_id)

      # Significant slowdowns beyond limit (a fraction, 0.1 = 10%).
      def regressions(limit)
        rows.select { |r| r.verdict == :slower && r.change > limit }
      end

      # The fewest runs a side for which complete separation would survive
      # Holm at this many comparisons; nil when the rows already have enough.
      def runs_needed
        m = [comparisons, 1].max
        short = rows.select(&:detectable?).any? { |r| Stats::MannWhitney.min_p(r.test.n1, r.test.n2) * m >= alpha }
        return nil unless short

        (2..100).find { |n| Stats::MannWhitney.min_p(n, n) * m < alpha }
      end

      # "prime/threads/w2/m50/ruby": a configuration as run ids name it.
      def label(key)
        key_fields.zip(key).filter_map do |field, value|
          next if value.nil?

          {"workers" => "w", "messages" => "m"}.fetch(field, "") + value.to_s
        end.join("/")
      end

      def key(group)
        values = Key.new(workload: group.workload, model: group.model, workers: group.workers, messages: group.messages,
          params: group.configuration.pairing_params, ruby: group.ruby)
        key_fields.map { |f| values[f] }
      end

      # A row's key by name: comparison.named(row.key).workers.
      def named(key) = Key.new(**key_fields.zip(key).to_h { |field, value| [field.to_sym, value] })

      private

      def against(side)
        mine = index(baseline.groups)
        theirs = index(side.groups)
        common = (mine.keys & theirs.keys).sort_by { |k| sort_key(mine[k]) }
        rows = common.map { |k| row(k, mine[k], theirs[k], side) }
        Against.new(side: side, rows: rows, only_a: mine.keys - theirs.keys, only_b: theirs.keys - mine.keys,
          geomean: geomean(rows))
      end

      def index(groups)
        groups.reject { |g| samples(g).empty? }.to_h { |g| [key(g), g] }
      end

      def sort_key(group)
        [*group.panel.sort_key, group.baseline_model? ? "" : group.model]
      end

      def samples(group) = group.values(metric).compact

      def by_rep(group) = group.values("rep").zip(group.values(metric)).each_with_object({}) { |(rep, v), h| h[rep] = v if v }

      def row(key, a, b, side)
        xs = samples(a)
        ys = samples(b)
        label = "#{key.compact.join("/")} #{side.label} vs #{baseline.label}"
        ratio_ci = if side.paired
          Stats::Bootstrap.ratio_of_medians(by_rep(b), by_rep(a), label: label)
        else
          Stats::Bootstrap.ratio_of_medians(ys, xs, label: label)
        end
        Row.new(key: key, a: a, b: b, a_ci: Stats::MedianInterval.for(xs), b_ci: Stats::MedianInterval.for(ys),
          ratio: ratio_ci.estimate, ratio_ci: ratio_ci, test: Stats::MannWhitney.test(xs, ys),
          busy_sides: {"A" => baseline, "B" => side}.select { |_, s| s.busy? }.keys)
      end

      # :faster, :slower, :same (enough runs, no detectable change),
      # :too_few (so few runs that no change could have been detected: not
      # the same thing as "no change"), :disturbed (too many disturbed runs
      # on a side: not tested, not counted among Holm's comparisons),
      # :unknown (no test possible).
      def adjust!
        all = rows
        adjusted = Stats::Holm.adjust(all.map { |r| r.test.p if r.detectable? })
        m = all.count(&:detectable?)
        all.zip(adjusted).each do |r, p|
          r.p_holm = p
          r.verdict = if r.disturbed? then :disturbed
          elsif p.nil? || r.ratio.nil? then :unknown
          elsif p < alpha then (r.ratio > 1) ? :slower : :faster
          elsif Stats::MannWhitney.min_p(r.test.n1, r.test.n2) * m >= alpha then :too_few
          else :same
          end
        end
      end

      # The geometric means of both sides' medians, their ratio, and its
      # interval: the same bootstrap draws of every row, combined draw by
      # draw, so the interval needs every row to have one. Inconclusive
      # (disturbed) configurations stay out of it.
      def geomean(rows)
        rows = rows.select { |r| r.ratio && !r.disturbed? }
        return nil if rows.empty?

        ratio = Stats::GeometricMean.of(rows.map(&:ratio))
        draws = rows.map { |r| r.ratio_ci.draws }
        low = high = nil
        if draws.all? && draws.map(&:size).uniq.size == 1
          combined = draws.transpose.map { |d| Stats::GeometricMean.of(d) }.compact.sort
          low = percentile(combined, (1 - 0.95) / 2)
          high = percentile(combined, 1 - (1 - 0.95) / 2)
        end
        Geomean.new(a: Stats::GeometricMean.of(rows.map { |r| r.a_ci.median }),
          b: Stats::GeometricMean.of(rows.map { |r| r.b_ci.median }), ratio: ratio, low: low, high: high, count: rows.size)
      end

      def percentile(sorted, q)
        h = (sorted.size - 1) * q
        sorted[h.floor] + (h - h.floor) * (sorted[h.ceil] - sorted[h.floor])
      end
    end
  end
end
