# frozen_string_literal: true

require_relative "../../plan/configuration"
require_relative "../svg/interval_bars"
require_relative "../svg/line_chart"
require_relative "../../stats/median_interval"
require_relative "../../analysis/comparison"
require_relative "../parts/units"
require_relative "../parts/figure_cells"
require_relative "../../analysis"

module Ractorbench
  module Reports
    module Html
      # The report's charts from [group, row] pairs: each has a #title (the
      # page's caption, where it can wrap) and #to_s (the SVG).
      class Charts
        # Okabe and Ito's colour-blind-safe palette; serial is grey.
        PALETTE = %w[#0072B2 #E69F00 #009E73 #CC79A7 #56B4E9 #D55E00 #8C6D1F #000000].freeze
        SERIAL = "#8a8a8a"
        VERDICT_COLOURS = {slower: "#D55E00", faster: "#009E73", same: "#9a9a9a", too_few: "#c8c8c8", unknown: "#c8c8c8",
                           disturbed: "#c8c8c8"}.freeze

        # A workload's name with its parameters made short enough for a
        # caption or a cell: a path by its file name, a long number by three
        # significant digits ("try (file=parse.rb,module=Parse,...)").
        def self.short_title(workload, params)
          params = Plan::Configuration.shown_params(params)
          return workload.to_s unless params

          short = params.split(",").map do |pair|
            key, value = pair.split("=", 2)
            value = File.basename(value) if value&.include?("/")
            value = format("%.3g", Float(value)) if value&.match?(/\A\d+\.\d{4,}\z/)
            value ? "#{key}=#{value}" : key
          end
          "#{workload} (#{short.join(",")})"
        end

        def initialize(analysis, pairs)
          @analysis = analysis
          @pairs = pairs
          bases, others = pairs.map(&:last).partition(&:baseline?)
          models = others.map { |r| r.model }.uniq.sort
          @colours = models.each_with_index.to_h { |m, i| [m, PALETTE[i % PALETTE.size]] }
          bases.each { |r| @colours[r.model] = SERIAL }
          @rubies = pairs.map { |_, r| r.ruby }.uniq
        end

        def colour(model) = @colours.fetch(model, PALETTE.last)

        def several_rubies? = @rubies.size > 1

        # One chart per workload and size: each model's median time with its interval.
        def times
          panels.map do |(workload, params, workers, messages), members|
            scale, unit = axis_unit(members.filter_map { |_, r| r.messages_time.max }.max.to_f)
            bars = members.map { |_, r| time_bar(r, scale) }
            Svg::IntervalBars.new(title: "#{title(workload, params)} — W=#{workers}, M=#{messages}: messages-only time",
              axis: "#{unit} (median; whisker: 95% interval of the median)", bars: bars)
          end
        end

        # One chart per workload, messages and Ruby with two or more worker counts.
        def speedups
          by = @pairs.group_by { |_, r| [r.workload, r.params, r.messages, r.ruby] }
          by.filter_map do |(workload, params, messages, ruby), members|
            next if members.map { |_, r| r.workers }.uniq.size < 2

            series = members.reject { |_, r| r.baseline? || r.speedup.nil? }
              .group_by { |_, r| r.model }.map do |model, rs|
                Svg::LineChart::Series.new(label: model, color: colour(model), points: rs.map { |_, r| speedup_point(r) })
              end
            next if series.empty?

            Svg::LineChart.new(title: "#{title(workload, params)} — M=#{messages}#{" — #{ruby}" if several_rubies?}: speedup over serial",
              x_axis: "workers", y_axis: "speedup (×)", series: series)
          end
        end

        # Cores kept busy ((user + system) / wall), against the worker count
        # and the usable cores.
        def cpu
          usable = @analysis.header.machine.usable_cores
          panels.map do |(workload, params, workers, messages), members|
            bars = members.map { |_, r| cpu_bar(r) }
            refs = [Svg::IntervalBars::Reference.new(value: workers.to_f, label: "W=#{workers}")]
            refs << Svg::IntervalBars::Reference.new(value: usable.to_f, label: "#{usable} usable cores") if usable && usable != workers
            Svg::IntervalBars.new(title: "#{title(workload, params)} — W=#{workers}, M=#{messages}: CPU utilisation",
              axis: "cores busy: (user + system) / wall (median; whisker: 95% interval)", bars: bars, references: refs)
          end
        end

        # Each other Ruby against the first: time ratio per configuration,
        # coloured by compare's verdict.
        def rubies
          return [] unless several_rubies?

          comparison = ruby_comparison
          comparison.againsts.map do |ag|
            bars = ag.rows.map { |row| ruby_bar(row) }
            Svg::IntervalBars.new(title: "#{ag.side.label} against #{comparison.baseline.label}: time ratio (below 1: #{ag.side.label} is faster)",
              axis: "messages-only time on #{ag.side.label} / on #{comparison.baseline.label}", bars: bars,
              references: [Svg::IntervalBars::Reference.new(value: 1.0, label: "1× (same)")])
          end
        end

        def ruby_comparison
          @ruby_comparison ||= begin
            sides = @rubies.map do |name|
              Analysis::Comparison::Side.new(label: name, groups: @pairs.map(&:first).select { |g| g.ruby == name }, paired: true)
            end
            Analysis::Comparison.new(baseline: sides.first, others: sides.drop(1), metric: "messages_time", alpha: 0.05,
              key_fields: %w[workload model workers messages params])
          end
        end

        private

        def panels
          @pairs.group_by { |_, r| [r.workload, r.params, r.workers, r.messages] }
        end

        def title(workload, params) = Charts.short_title(workload, params)

        def bar_label(row) = several_rubies? ? "#{row.model} · #{row.ruby}" : row.model

        # Seconds, milliseconds or microseconds, whichever reads best.
        def axis_unit(largest)
          if largest >= 1 then [1, "seconds"]
          elsif largest >= 1e-3 then [1e3, "milliseconds"]
          else [1e6, "microseconds"]
          end
        end

        def time_bar(row, scale)
          label = bar_label(row)
          return missing_bar(label, row) if row.unsupported || row.samples.to_i.zero?

          s = row.messages_time
          ci = row.messages_time_ci
          text = if ci&.low
            "#{Reports::Parts::Units.duration(s.median, space: " ")} #{Reports::Parts::Units.duration_range(s.median, ci.low, ci.high)} n=#{s.samples}"
          else
            "#{Reports::Parts::Units.duration(s.median, space: " ")}, sd #{Reports::Parts::Units.duration(s.stddev, space: " ")}, n=#{s.samples}"
          end
          Svg::IntervalBars::Bar.new(label: label, value: s.median * scale, low: ci&.low&.*(scale),
            high: ci&.high&.*(scale), color: colour(row.model), text: text,
            tooltip: "#{label}: #{text}#{" (fewer than 6 runs: no interval)" unless ci&.low}")
        end

        def cpu_bar(row)
          label = bar_label(row)
          return missing_bar(label, row) if row.unsupported || row.samples.to_i.zero?

          median = row.cpu_utilisation
          ci = row.cpu_utilisation_ci
          # Every run's whole time was 0: no utilisation to draw.
          return Svg::IntervalBars::Bar.new(label: label, value: nil, text: "no CPU figure (whole times of 0)") unless median && ci

          low, high, n = ci.low, ci.high, ci.samples
          text = low ? format("%.2f %s n=%d", median, Parts::FigureCells.interval(low, high), n) : format("%.2f n=%d (no interval)", median, n)
          Svg::IntervalBars::Bar.new(label: label, value: median, low: low, high: high, color: colour(row.model), text: text)
        end

        def missing_bar(label, row)
          Svg::IntervalBars::Bar.new(label: label, value: nil,
            text: row.unsupported || "no successful run (#{row.failed} failed)")
        end

        def speedup_point(row)
          ci = row.speedup_ci
          [row.workers.to_f, row.speedup, ci&.low, ci&.high]
        end

        def ruby_bar(row)
          key = ruby_comparison.named(row.key)
          detail = "#{title(key.workload, key.params)} W=#{key.workers} M=#{key.messages}"
          ci = row.ratio_ci
          # A configuration too disturbed to judge: its ratio, no interval.
          low, high = (ci.known? && row.verdict != :disturbed) ? [ci.low, ci.high] : []
          verdict = {slower: "slower", faster: "faster", same: "~ no detectable change", too_few: "? too few runs to tell",
                     unknown: "?", disturbed: "inconclusive: most runs disturbed"}.fetch(row.verdict)
          text = Parts::FigureCells.ratio(row.ratio) + (low ? " #{Parts::FigureCells.interval(low, high)}" : "") +
            " #{verdict}, n=#{row.test.n1}+#{row.test.n2}"
          Svg::IntervalBars::Bar.new(label: key.model, detail: detail, value: row.ratio, low: low, high: high,
            color: VERDICT_COLOURS.fetch(row.verdict), text: text)
        end
      end
    end
  end
end
