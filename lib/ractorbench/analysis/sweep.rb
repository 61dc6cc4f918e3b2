# frozen_string_literal: true

require_relative "../plan/configuration"
require_relative "../analysis"
require_relative "efficiency"
require_relative "row"
require_relative "../stats/amdahl"
require_relative "../stats/descriptive"

module Ractorbench
  class Analysis
    # Strong scaling: the same total work (workers x messages jobs) at several
    # worker counts, one series per model, each point's speedup over serial at
    # that count, and an Amdahl fit per series. `ractorbench try` sweeps this
    # way; `run` configurations that keep workers x messages fixed do too.
    class Analysis::Sweep
      # verdict: :faster / :slower than serial beyond the noise, :same (the
      # samples overlap), :unknown (too few samples to tell).
      Point = Struct.new(:workers, :samples, :time, :baseline_time, :speedup, :low, :high, :verdict, :efficiency, :cpu,
        :memory_kb, :memory_kind, :rss_sum_kb, :failed, :row, keyword_init: true)

      # A model's points in one panel, and its fit.
      # fit_upto: the largest worker count the fit used.
      # family: the model's (thread, process, ractor, ...), see Analysis#family.
      # shape: how it hands out work (Harness::Model::SHAPES), when declared.
      Series = Struct.new(:model, :family, :shape, :points, :fit, :fit_upto, keyword_init: true) do
        def best = points.select(&:speedup).max_by(&:speedup)
      end

      # One workload, parameters, Ruby and job count.
      Panel = Struct.new(:workload, :params, :ruby, :jobs, :usable_cores, :baseline, :series, keyword_init: true) do
        def title = [Plan::Configuration.title(workload, params), "#{jobs} jobs", ruby].compact.join(" ")

        def worker_counts = series.flat_map { |s| s.points.map(&:workers) }.uniq.sort
      end

      # Worker counts an Amdahl fit needs (within the usable cores, unless the
      # work beat the core count: it waits).
      FIT_COUNTS = 3

      # min_counts: how many worker counts make a panel (a report wants a
      # line; `try` shows its table even for one count).
      def self.panels(analysis, min_counts: 2)
        new(analysis, min_counts).panels
      end

      def initialize(analysis, min_counts = 2)
        @analysis = analysis
        @min_counts = min_counts
        @usable = analysis.header.machine.usable_cores
      end

      def panels
        pairs = @analysis.groups.map { |g| [g, @analysis.row(g)] }
        pairs.group_by { |g, _| [g.workload, g.params_label, g.ruby, g.workers.to_i * g.messages.to_i] }.filter_map do |key, members|
          panel(key, members)
        end
      end

      private

      def panel(key, members)
        others = members.reject { |g, _| g.baseline_model? }
        return nil if others.map { |g, _| g.workers }.uniq.size < @min_counts

        workload, params, ruby, jobs = key
        serial = members.select { |g, _| g.baseline_model? }
        series = others.group_by { |g, _| g.model }.sort.map do |model, list|
          points = list.sort_by { |g, _| g.workers.to_i }.map { |g, row| point(g, row) }
          used = fitted_points(points)
          Series.new(model: model, family: @analysis.family(model), shape: @analysis.shape(model), points: points, fit: Stats::Amdahl.new(used.map { |p| [p.workers, p.speedup] }),
            fit_upto: used.map(&:workers).max)
        end
        Panel.new(workload: workload, params: params, ruby: ruby, jobs: jobs, usable_cores: @usable,
          baseline: serial.map { |g, row| point(g, row) }, series: series)
      end

      def point(group, row)
        ci = row.speedup_ci
        memory, kind, rss = memory(group)
        Point.new(workers: group.workers.to_i, samples: group.messages_time.n, time: group.messages_time,
          baseline_time: group.baseline&.messages_time, speedup: row.speedup, low: ci&.low, high: ci&.high, verdict: verdict(group, ci),
          efficiency: row.parallel_efficiency, cpu: row.cpu_utilisation, memory_kb: memory, memory_kind: kind,
          rss_sum_kb: rss, failed: row.failed, row: row)
      end

      # With a 95% interval of the speedup, whether it excludes 1; with too few
      # runs for one, whether every run of one side beat every run of the other.
      def verdict(group, ci)
        return :unknown if group.baseline.nil? || group.baseline_model?
        return :faster if ci&.low && ci.low > 1
        return :slower if ci&.high && ci.high < 1
        return :same if ci&.low

        mine = group.messages_time
        base = group.baseline.messages_time
        return :unknown if mine.n < 2 || base.n < 2
        return :faster if mine.max < base.min
        return :slower if mine.min > base.max

        :same
      end

      # Forked workers share pages with their supervisor, so their memory is
      # the proportional set size (each shared page split among its sharers)
      # of every process together; a single process's is its peak RSS.
      def memory(group)
        pss = group.values("supervisor_pss_kb").zip(group.values("workers_pss_kb")).filter_map { |own, workers| own.to_i + workers.to_i if own && workers }
        rss = group.peak_memory_kb.median
        return [Stats::Descriptive.new(pss).median, "PSS", rss] unless pss.empty?

        [rss, "RSS", nil]
      end

      # Amdahl's law is about cores: points with more workers than usable
      # cores measure oversubscription, so the fit leaves them out, unless
      # they beat the core count (work that waits: workers, not cores, are
      # what it scales with). Through fewer than FIT_COUNTS worker counts
      # (within the cores, for work that does not wait) a curve fits
      # anything: then there is no fit.
      def fitted_points(points)
        measured = points.select(&:speedup)
        waits = @usable.nil? || measured.any? { |p| p.workers > @usable && p.speedup > @usable }
        used = waits ? measured : measured.select { |p| p.workers <= @usable }
        (used.map(&:workers).uniq.size < FIT_COUNTS) ? [] : used
      end
    end
  end
end
