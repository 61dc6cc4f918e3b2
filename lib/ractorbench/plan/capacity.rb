# frozen_string_literal: true

require_relative "../../../harness/ractorbench/harness/task_room"
require_relative "../../../harness/ractorbench/harness/mn_check"
require_relative "../base/errors"
require_relative "../base/plural"

module Ractorbench
  module Plan
    # Before anything starts, no count a user gives may become more
    # threads, ractors or processes at once than this machine can spare
    # (Harness::TaskRoom: half the room left under its tightest limit), nor
    # more pipes than a child may open: a run's units at once (the model's W
    # workers, or what the workload starts itself: Workload#concurrency)
    # times what one costs by the model's family, and each Ruby's M:N probe
    # (Harness::MNCheck's waiting ractors for RUBY_MAX_CPU). One line names
    # the value and the largest this machine takes.
    class Capacity
      # Tasks one unit takes, by model family: a forked worker is a Ruby
      # process with threads of its own. A model without a family counts as
      # the dearest.
      TASKS = {"serial" => 0, "fiber" => 0, "thread" => 1, "ractor" => 1, "process" => 3}.freeze
      DEAREST = 3
      # A Ruby process's own threads (main, timer, GC), with room for the
      # collector's beside it.
      BASE = 16
      # Descriptors a forked worker's pipes hold in its supervisor, and what
      # a Ruby process keeps open besides.
      FILES = {"process" => 4}.freeze
      FILES_BASE = 64

      # runs: Plan::RunSpecs; targets: the Rubies::Targets they run on
      # (their RUBY_MAX_CPU sizes the probe); title: what to call the
      # workload (`try`: the user's module), else its name and parameters.
      def self.check!(runs, catalog, targets, title: nil)
        new(catalog, title).check!(runs, targets)
      end

      def initialize(catalog, title = nil)
        @catalog = catalog
        @title = title
        @room, @limit = Harness::TaskRoom.share
        @files = Process.getrlimit(:NOFILE).last
      rescue ArgumentError, NotImplementedError, SystemCallError
        @files = nil
      end

      def check!(runs, targets)
        targets.each { |target| probe!(target) }
        runs.uniq { |spec| [spec.workload, spec.model, spec.workers, spec.params] }.each { |spec| run!(spec) }
      end

      private

      def probe!(target)
        max_cpu = target.env["RUBY_MAX_CPU"] or return
        units = Harness::MNCheck.units(max_cpu.to_i)
        return if @room.nil? || units + BASE <= @room

        largest = (@room - BASE - 8) / 2
        raise UsageError, "--max-cpu #{max_cpu}: checking that RUBY_MAX_CPU=#{max_cpu} takes effect starts #{units} " \
          "waiting ractors at once, more than #{spare}; the largest --max-cpu it can check is #{[largest, 0].max}"
      end

      def run!(spec)
        workload = @catalog.workload(spec.workload).implementation
        family = @catalog.model(spec.model).family
        params = workload.default_params.merge((spec.params || {}).transform_keys(&:to_sym))
        units = workload.concurrency(spec.workers, params)
        units = spec.workers unless units.is_a?(Integer)
        tasks = TASKS.fetch(family, DEAREST)
        files = FILES.fetch(family, 0)
        # The most units both limits take: what the line offers instead,
        # with the limit that binds.
        most = []
        most << [(@room - BASE) / tasks, "the tasks this machine can spare (#{@room})"] if @room && tasks.positive?
        most << [(@files - FILES_BASE) / files, "ulimit -n #{@files}"] if files_known? && files.positive?
        hint = lower(spec, units, *(most.min_by(&:first) || [0, "this machine's limits"]))
        tasks!(spec, units, tasks, family, hint)
        files!(spec, units, files, hint)
      end

      def tasks!(spec, units, each, family, hint)
        return if @room.nil? || each.zero? || units * each + BASE <= @room

        kind = Plural.word(2, family)
        raise UsageError, "#{what(spec, units)} starts about #{units * each} #{(each > 1) ? "tasks (#{units} #{kind})" : kind} " \
          "at once, more than #{spare}; #{hint}"
      end

      def files!(spec, units, each, hint)
        return if !files_known? || each.zero? || units * each + FILES_BASE <= @files

        raise UsageError, "#{what(spec, units)} holds about #{units * each} pipe ends at once, besides the " \
          "#{FILES_BASE} files a Ruby process keeps open: more than a child may open (#{@files}, the hard limit of ulimit -n); #{hint}"
      end

      def files_known? = !@files.nil? && @files != Process::RLIM_INFINITY

      def what(spec, units)
        params = spec.params.to_h.sort.map { |k, v| "#{k}=#{v}" }.join(",")
        name = @title || (params.empty? ? spec.workload : "#{spec.workload} (#{params})")
        "a run of #{name} under #{spec.model} at W=#{spec.workers}#{" (#{units} units)" unless units == spec.workers}"
      end

      # What to change: --workers when W is the count, else the workload's
      # parameters; when not even one fits, the limit (bound) that leaves none.
      def lower(spec, units, most, bound)
        if most < 1
          return "not even one #{(units == spec.workers) ? "worker" : "unit"} fits under #{bound}: raise that limit (in a new shell, or as root)"
        end
        return "lower --workers: the most this machine takes is W=#{most}" if units == spec.workers

        "lower the workload's parameters: the most this machine takes is #{most} units"
      end

      def spare
        "this machine can spare (#{@room} tasks: half the room left under #{@limit.name}, #{@limit.value} with " \
          "#{@limit.used} in use)"
      end
    end
  end
end
