# frozen_string_literal: true

require_relative "../analysis"
require_relative "../base/errors"
require_relative "../base/plural"
require_relative "../plan/configuration"
require_relative "../stats/descriptive"
require_relative "history/change_points"

module Ractorbench
  class Analysis
    # A series of results files (nightly builds, Ruby versions) as one
    # history: each configuration's undisturbed runs file by file, its trend,
    # and the steps ChangePoints finds in it. A configuration is judged only
    # with MIN_POINTS files that hold MIN_RUNS undisturbed runs of it or
    # more; a file whose runs of it were all disturbed is left out of its
    # series, as `report` leaves disturbed runs out of its figures. Three
    # files are the fewest that put two on one side of any step, so that a
    # step is never one odd file against one other (conbench asks for two
    # earlier runs too); three runs a file, the fewest with a middle.
    module Analysis::History
      MIN_POINTS = 3
      MIN_RUNS = 3
      # "ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux]"
      RUBY_DATE = /\((\d{4}-\d{2}-\d{2})(?: revision (\h+))?/

      # One results file: its place in the series and what its header says.
      Source = Struct.new(:label, :analysis, keyword_init: true) do
        def rubies = analysis.header.rubies

        def descriptions = rubies.map { |r| r.info.description.to_s }

        # [date, revision] of the file's one Ruby, or nil.
        def ruby_date
          match = (descriptions.size == 1) && descriptions.first.match(RUBY_DATE)
          match ? [match[1], match[2]] : nil
        end

        def ruby_shown
          date, revision = ruby_date
          version = rubies.first&.info&.version
          ruby_date ? "ruby #{version} (#{[date, revision].compact.join(" ")})" : rubies.map(&:name).join(", ")
        end

        def created_at = analysis.header.created_at.to_s
      end

      # One file's runs of one configuration: the runs judged (undisturbed,
      # successful), or why there are none (left).
      Point = Struct.new(:index, :runs, :left, keyword_init: true) do
        def summary = @summary ||= Stats::Descriptive.new(runs)

        def counted?(min_runs) = left.nil? && runs.size >= min_runs
      end

      # One configuration through the files: its points (one per file, nil
      # where the file has no run of it), the steps reported, or why it was
      # not judged.
      Series = Struct.new(:key, :label, :points, :steps, :refused, keyword_init: true) do
        def counted(min_runs = MIN_RUNS) = points.compact.select { |p| p.counted?(min_runs) }
      end

      ORDERS = %w[auto ruby date given].freeze

      # A history as the reports show it: the files in order and how they
      # were ordered, every configuration's series, the settings judged by.
      Result = Struct.new(:files, :order, :series, :tests, :alpha, :min_change, :metric_title, keyword_init: true) do
        def steps = series.flat_map(&:steps)

        def judged = series.count { |s| s.refused.nil? }

        def inconclusive? = judged.zero?
      end

      module_function

      # sources: Sources in the order given; order: ORDERS; metric: a run
      # field (messages_time, whole_time).
      def of(sources, order:, metric:, metric_title:, alpha:, min_change:)
        files, how = order(sources, order)
        all, tests = series(files, metric: metric, alpha: alpha, min_change: min_change)
        Result.new(files: files, order: how, series: all, tests: tests.size, alpha: alpha, min_change: min_change, metric_title: metric_title)
      end

      # files: History::Sources in the order given; order: ORDERS. Returns
      # [files in order, how they were ordered].
      def order(files, how)
        dated = files.all?(&:ruby_date)
        case how
        when "given" then [files, "as given"]
        when "date" then [files.sort_by.with_index { |f, i| [f.created_at, i] }, "by the date each collection was made (header created_at)"]
        else
          if how == "ruby" && !dated
            undated = files.reject(&:ruby_date).first
            raise UsageError, "--order ruby: #{undated.label} does not record one Ruby with its date " \
              "(it records #{Plural.count(undated.rubies.size, "Ruby", "Rubies")}); use --order date or --order given"
          end
          return order(files, "date") unless dated

          [files.sort_by.with_index { |f, i| [f.ruby_date.first, f.created_at, i] }, "by the date of each file's Ruby (then when it was collected)"]
        end
      end

      # Every configuration's series and the tests made. The Ruby is part of a configuration
      # unless every file has one Ruby (a Ruby a file: the series is of Rubies).
      def series(files, metric:, alpha:, min_change:)
        by_ruby = !files.all? { |f| f.analysis.groups.map(&:ruby).uniq.size <= 1 }
        all = {}
        files.each_with_index do |file, i|
          file.analysis.groups.each do |group|
            key = key_of(group, by_ruby)
            entry = all[key] ||= Series.new(key: key, label: label_of(group, by_ruby), points: Array.new(files.size), steps: [])
            entry.points[i] = point(group, i, metric)
          end
        end
        judge(all.values, alpha: alpha, min_change: min_change)
      end

      def key_of(group, by_ruby)
        [group.workload, group.model, group.workers, group.messages, group.params_label, (group.ruby if by_ruby)]
      end

      def label_of(group, by_ruby)
        Plan::Configuration.shown_label(workload: group.workload, model: group.model, workers: group.workers,
          messages: group.messages, params: group.params_label, ruby: (group.ruby if by_ruby))
      end

      def point(group, index, metric)
        return Point.new(index: index, runs: [], left: "no successful runs") if group.ok_count.zero?
        return Point.new(index: index, runs: [], left: "every run disturbed") if group.all_disturbed?

        Point.new(index: index, runs: group.values(metric).compact.map(&:to_f))
      end

      def judge(all, alpha:, min_change:)
        judged, refused = all.partition { |s| s.counted.size >= MIN_POINTS }
        refused.each do |s|
          s.refused = "too few points: #{s.counted.size} of the #{MIN_POINTS} files needed have #{MIN_RUNS} or more undisturbed runs of it"
        end
        tests = ChangePoints.judge(judged.to_h { |s| [s.key, s.counted.map(&:runs)] }, alpha: alpha)
        tests.select { |t| t.reported?(alpha, min_change) }.each do |t|
          series = judged.find { |s| s.key == t.series }
          series.steps << Step.new(point: series.counted[t.at], test: t, series: series)
        end
        all.each { |s| s.steps.sort_by! { |step| step.point.index } }
        [all, tests]
      end

      # A step reported: the first point after it, and its test.
      Step = Struct.new(:point, :test, :series, keyword_init: true) do
        def change = test.change

        def p_holm = test.p_holm
      end
    end
  end
end
