# frozen_string_literal: true

require_relative "../plan/catalog"
require_relative "../plan/ruby_bench"
require_relative "../plan/matrix"
require_relative "../plan/number_list"
require_relative "../plan/size"
require_relative "../plan/capacity"
require_relative "../rubies/target"
require_relative "../base/errors"

module Ractorbench
  class Collection
    # The plan a results file's header recorded, checked as the command line
    # would have been before `--resume` runs any of it or writes a line: the
    # timeout, the Rubies, every planned run's fields, the workloads, models
    # and parameters it names (the catalog with the files the header loads),
    # the sizes (Plan::Size, Plan::Capacity). The runs already in the file
    # must be runs of this plan, each once. Any problem is one line, exit 2.
    class RecordedPlan
      FIELDS = {"workload" => String, "model" => String, "ruby" => String}.freeze
      COUNTS = %w[workers messages rep].freeze

      attr_reader :catalog, :timeout, :matrix, :targets

      # header: the file's Store::Header; runs: its run lines (a RunTable);
      # default_timeout: when the header has none.
      def initialize(path, header, runs, default_timeout:)
        @path = path
        @catalog = checked { catalog_of(header) }
        @timeout = timeout_of(header, default_timeout)
        @targets = targets_of(header.rubies)
        @matrix = matrix_of(header.plan)
        checked { names! }
        current!
        checked { Plan::Size.check!(@matrix.runs, @catalog, timeout: @timeout) }
        checked { Plan::Capacity.check!(@matrix.runs, @catalog, @targets) }
        own_runs!(runs, adaptive: header.reps.is_a?(String))
      end

      private

      # The header's --load files, and a ruby-bench checkout's loader when
      # the plan runs one (checked as --ruby-bench DIR is).
      def catalog_of(header)
        catalog = Plan::Catalog.default.with(Array(header.load))
        bench = header.ruby_bench
        bench.is_a?(Hash) ? Plan::RubyBench.from_h(bench).catalog(catalog) : catalog
      end

      def refuse(what)
        raise UsageError, "cannot resume #{@path}: #{what}; it can only be run again from the start (-o)"
      end

      # A problem the command line would have named, named as the header's.
      def checked
        yield
      rescue UsageError => e
        refuse("its header's plan is not one ractorbench would run (#{e.message})")
      end

      def timeout_of(header, default)
        return default if header.timeout.nil?

        Plan::NumberList.positive_float("--timeout", header.timeout.to_s)
      rescue UsageError
        refuse("its header's timeout is #{header.timeout.inspect}, not a positive number of seconds")
      end

      def targets_of(rubies)
        refuse("its header names no Ruby") if rubies.empty?
        rubies.map.with_index(1) do |ruby, i|
          refuse("Ruby #{i} of its header (#{ruby.name.inspect}) has no command to start it") unless startable?(ruby)
          Rubies::Target.from_h(ruby.as_json)
        end
      end

      # A command (words) and an environment (names to values).
      def startable?(ruby)
        argv = ruby.argv
        env = ruby.env
        words = argv.is_a?(Array) && !argv.empty? && argv.all?(String)
        words && (env.nil? || (env.is_a?(Hash) && env.all? { |k, v| k.is_a?(String) && v.is_a?(String) }))
      end

      # The header's plan: built again from its recipe and checked against
      # its digest, or (a file from before the recipe) every run listed.
      def matrix_of(plan)
        refuse("its header has no plan") unless plan.is_a?(Hash)
        refuse("its header's plan has no seed") unless plan["seed"].is_a?(Integer) && !plan["seed"].negative?
        rebuilt = rebuilt(plan) if plan.key?("recipe")
        runs = rebuilt ? rebuilt.runs.map(&:to_h) : plan["runs"]
        refuse("its header's plan has no runs") unless runs.is_a?(Array) && !runs.empty?

        rubies = @targets.map(&:name)
        runs.each_with_index { |run, i| run!(run, i + 1, rubies) }
        rebuilt || Plan::Matrix.from_h(plan)
      end

      def rebuilt(plan)
        checked { Plan::Matrix.from_h(plan) }
      rescue Plan::Matrix::Mismatch => e
        refuse("#{e.message}: edited, or written by another version")
      rescue *(Plan::Matrix::DAMAGED - [UsageError])
        refuse("its header's plan has a recipe that builds no plan")
      end

      def run!(run, number, rubies)
        refuse("run #{number} of its header's plan is not an object") unless run.is_a?(Hash)
        FIELDS.each do |field, type|
          refuse("run #{number} of its header's plan has no #{field}") unless run[field].is_a?(type)
        end
        COUNTS.each do |field|
          value = run[field]
          next if value.is_a?(Integer) && value.positive?

          refuse("run #{number} of its header's plan has #{field} #{value.inspect}, not a positive integer")
        end
        refuse("run #{number} of its header's plan has params that are not an object") unless run["params"].nil? || run["params"].is_a?(Hash)
        return if rubies.include?(run["ruby"])

        refuse("run #{number} of its header's plan names Ruby #{run["ruby"].inspect}, which its header does not describe")
      end

      # Workloads, models and parameters, as Plan::Options checks a command line's.
      def names!
        @matrix.runs.uniq { |s| [s.workload, s.model, s.params, s.workers * s.messages] }.each do |spec|
          workload = @catalog.workload(spec.workload).implementation
          @catalog.model(spec.model)
          params = (spec.params || {}).transform_keys(&:to_s)
          takes = workload.default_params.keys.map(&:to_s)
          unknown = params.keys - takes
          raise UsageError, "--param #{unknown.join(", ")}: workload #{spec.workload} takes #{takes.empty? ? "none" : takes.join(", ")}" unless unknown.empty?

          problem = workload.validate(workload.default_params.merge(params.transform_keys(&:to_sym)), spec.workers * spec.messages)
          raise UsageError, "workload #{spec.workload}: #{problem}" if problem
        end
      end

      # What the plan measures is still there (try: the file as checked).
      def current!
        @matrix.runs.uniq { |s| [s.workload, s.params] }.each do |spec|
          why = @catalog.stale(spec)
          refuse(why) if why
        end
      end

      # The file's runs are runs of this plan, each once (with --reps auto,
      # more repetitions of its configurations too).
      def own_runs!(runs, adaptive:)
        planned = @matrix.runs.to_h { |spec| [spec.id, true] }
        configurations = @matrix.runs.to_h { |spec| [configuration(spec), true] }
        ids = runs.map(&:id)
        foreign = runs.reject do |r|
          planned.key?(r.id) || (adaptive && configurations.key?(configuration(r)))
        end
        unless foreign.empty?
          refuse("it holds #{foreign.size} run#{"s" if foreign.size > 1} its header's plan does not have (the first: " \
            "#{foreign.first.id}), runs of another plan")
        end
        twice = ids.tally.find { |_, n| n > 1 }
        refuse("it holds run #{twice.first} #{twice.last} times") if twice
      end

      # A planned run's (Plan::RunSpec) or a recorded one's.
      def configuration(run) = [run.workload, run.model, run.workers, run.messages, run.params || {}, run.ruby]
    end
  end
end
