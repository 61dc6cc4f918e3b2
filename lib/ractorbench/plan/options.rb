# frozen_string_literal: true

require_relative "number_list"
require_relative "../base/numbers"
require_relative "suite"
require_relative "matrix"
require_relative "ruby_bench"
require_relative "../base/errors"

module Ractorbench
  module Plan
    # What `run` was asked to measure, from a suite and/or explicit flags,
    # checked against the catalog before anything is run or written.
    class Options
      DEFAULT_WORKERS = [2].freeze
      DEFAULT_MESSAGES = [100].freeze
      DEFAULT_REPS = 3

      attr_accessor :suite, :workloads, :models, :workers, :messages, :reps, :scale
      # --ruby-bench DIR: a Plan::RubyBench checkout, whose benchmarks -w names.
      attr_accessor :ruby_bench
      attr_reader :params

      def initialize
        @params = {}
        @scale = 1.0
      end

      def add_param(text)
        key, value = text.split("=", 2)
        raise UsageError, "--param needs KEY=VALUE, got #{text.inspect}" if value.nil? || key.to_s.strip.empty?

        key = key.strip
        if @params.key?(key)
          raise UsageError, "--param #{key} is given twice (#{@params[key]} and #{value}); give each parameter once"
        end
        @params[key] = typed(value)
        return if !@params[key].is_a?(Numeric) || Numbers.bounded?(@params[key])

        raise UsageError, "--param #{key} must be a finite number under 10^18, got #{Numbers.typed(value)}"
      end

      # --reps auto[:SECONDS] (Plan::AdaptiveReps), or nil.
      attr_accessor :adaptive

      def repetitions
        return adaptive.initial if adaptive

        reps || suite&.reps || DEFAULT_REPS
      end

      def entries(catalog)
        base = if ruby_bench then ruby_bench_entries
        elsif suite then suite.entries(scale)
        else default_entries(catalog)
        end
        list = base.filter_map { |entry| narrow(entry, catalog) }
        raise UsageError, "nothing to run: --workloads and --models leave nothing of suite #{suite.name}" if list.empty?

        check_param_keys(list, catalog)
        list.each { |entry| validate(entry, catalog) }
      end

      # The catalog a plan runs with: a ruby-bench checkout's children load its loader.
      def catalog(base) = ruby_bench ? ruby_bench.catalog(base) : base

      private

      def ruby_bench_entries
        raise UsageError, "--ruby-bench and --suite do not mix: run the suite and the checkout as two collections" if suite
        raise UsageError, "with --ruby-bench, -w names the benchmarks; --param benchmark is not taken" if @params.key?("benchmark")

        ruby_bench.entries(names: workloads, models: models, workers: workers, blocks: messages)
      end

      def default_entries(catalog)
        configs = (workers || DEFAULT_WORKERS).product(messages || DEFAULT_MESSAGES).map { |w, m| [w, scaled(m)] }
        (workloads || ["prime"]).map do |workload|
          Plan::Entry.new(workload: workload, models: models || catalog.models.map(&:name).sort, configs: configs, params: {})
        end
      end

      def narrow(entry, catalog)
        return nil if workloads && !ruby_bench && !workloads.include?(entry.workload)

        chosen = models ? entry.models & models : entry.models
        return nil if chosen.empty?

        configs = (suite && (workers || messages)) ? override_configs(entry) : entry.configs
        # Each --param goes to the workloads that take it.
        own = @params.slice(*param_keys(entry.workload, catalog))
        Plan::Entry.new(workload: entry.workload, models: chosen, configs: configs, params: entry.params.merge(own))
      end

      def param_keys(workload, catalog)
        catalog.workload(workload).implementation.default_params.keys.map(&:to_s)
      end

      # A --param no workload of the plan takes would be silently ignored.
      def check_param_keys(list, catalog)
        workloads = list.map(&:workload).uniq
        unknown = @params.keys - workloads.flat_map { |w| param_keys(w, catalog) }
        return if unknown.empty?

        takes = workloads.map do |w|
          keys = param_keys(w, catalog)
          keys.empty? ? "#{w} takes none" : "#{w} takes #{keys.join(", ")}"
        end
        raise UsageError, "--param #{unknown.join(", ")}: no workload of this plan takes #{(unknown.size > 1) ? "them" : "it"} " \
          "(#{takes.join("; ")})"
      end

      def override_configs(entry)
        ws = workers || entry.configs.map(&:first).uniq
        ms = messages ? messages.map { |m| scaled(m) } : entry.configs.map(&:last).uniq
        ws.product(ms)
      end

      def scaled(messages)
        [(messages * scale).round, 1].max
      end

      def validate(entry, catalog)
        workload = catalog.workload(entry.workload).implementation
        entry.models.each { |m| catalog.model(m) }
        entry.configs.each do |w, m|
          problem = workload.validate(workload.default_params.merge(entry.params.transform_keys(&:to_sym)), w * m)
          raise UsageError, "workload #{entry.workload}: #{problem}" if problem
        end
      end

      def typed(value)
        Integer(value, 10)
      rescue ArgumentError
        begin
          Float(value)
        rescue ArgumentError
          value
        end
      end
    end
  end
end
