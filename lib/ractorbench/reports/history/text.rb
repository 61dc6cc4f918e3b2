# frozen_string_literal: true

require_relative "../parts/columns"
require_relative "../parts/units"
require_relative "../../base/console"
require_relative "../../base/plural"
require_relative "../../analysis/history"

module Ractorbench
  module Reports
    # `history`'s screen: the files in their order, the method, then a line
    # per configuration (its trend as a sparkline of the per-file medians,
    # the first and last median with spread and runs, its steps), and a
    # closing line per step found.
    module Reports::HistoryText
      BARS = %w[▁ ▂ ▃ ▄ ▅ ▆ ▇ █].freeze
      # A file whose runs of a configuration are left out; a file without any.
      LEFT_OUT = "·"
      ABSENT = " "

      module_function

      # view: Commands::History's result (files, order, series, settings).
      def render(view, width)
        [*files(view, width), "", Console.wrap(method_text(view), width), "", table(view, width), *closing(view, width)].join("\n") + "\n"
      end

      def files(view, width)
        lines = ["History of #{Plural.count(view.files.size, "results file")}, ordered #{view.order}:"]
        digits = view.files.size.to_s.size
        view.files.each_with_index do |f, i|
          lines << Console.wrap("  #{(i + 1).to_s.rjust(digits)}  #{f.label}  #{f.ruby_shown}  collected #{f.created_at}", width)
        end
        lines
      end

      def method_text(view)
        history = Analysis::History
        "Trend: the median #{view.metric_title} of each file's undisturbed runs, oldest to newest (#{BARS.first} lowest, " \
          "#{BARS.last} highest of that configuration; #{LEFT_OUT} every run disturbed or failed). Steps: binary segmentation " \
          "of the per-file medians (log scale), each split confirmed by a two-sided Mann–Whitney test of the runs " \
          "before it against the runs after it, Holm's correction over all #{Plural.count(view.tests, "test")} " \
          "(alpha #{view.alpha}), reported from a change of #{(view.min_change * 100).round(1)}%; a configuration is " \
          "judged only with #{history::MIN_POINTS} or more files holding #{history::MIN_RUNS} or more undisturbed runs of it."
      end

      def table(view, width)
        columns = Parts::Columns.new(["configuration", "trend", "first", "last", "steps"], spill: true)
        view.series.each do |s|
          counted = s.counted
          figures = counted.empty? ? ["", ""] : [figure(counted.first), figure(counted.last)]
          columns.group(s.label, [[sparkline(s), *figures, steps(s)]])
        end
        columns.to_s(width)
      end

      # "12.3ms ±4% n=6 (1)": the median, its relative spread, runs, file.
      def figure(point)
        summary = point.summary
        spread = summary.relative_spread ? format(" ±%.0f%%", summary.relative_spread * 100) : ""
        "#{Parts::Units.duration(summary.median)}#{spread} n=#{summary.n} (#{point.index + 1})"
      end

      def steps(series)
        return series.refused if series.refused
        return "none" if series.steps.empty?

        series.steps.map { |step| "#{signed(step.change)} from #{step.point.index + 1}" }.join(", ")
      end

      def sparkline(series)
        counted = series.counted
        medians = counted.map { |p| p.summary.median }
        low, high = medians.minmax
        series.points.map do |point|
          next ABSENT if point.nil?
          next LEFT_OUT unless counted.include?(point)

          (high == low) ? BARS[3] : BARS[((point.summary.median - low) / (high - low) * (BARS.size - 1)).round]
        end.join
      end

      def closing(view, width)
        lines = view.steps.map do |step|
          file = view.files[step.point.index]
          "STEP #{step.series.label}: #{signed(step.change)} (#{step.change.positive? ? "slower" : "faster"}) from file " \
            "#{step.point.index + 1} (#{file.label}, #{file.ruby_shown}), Holm p #{p_text(step.p_holm)}"
        end
        lines << "No step found in #{Plural.count(view.judged, "configuration")} judged." if lines.empty? && view.judged.positive?
        lines << "INCONCLUSIVE: no configuration could be judged (see each one's reason above)." if view.judged.zero?
        ["", *lines.map { |l| Console.wrap(l, width) }]
      end

      def signed(change) = format("%+.1f%%", change * 100)

      def p_text(p) = (p < 0.0001) ? "<0.0001" : format("%.4f", p)
    end
  end
end
