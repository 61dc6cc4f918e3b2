# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "../ractorbench/harness/param_check"
require_relative "../ractorbench/harness/ruby_bench/script"
require_relative "../ractorbench/harness/ruby_bench/round"
require_relative "../ractorbench/harness/ruby_bench/values"
require_relative "../ractorbench/harness/ruby_bench/crews/serial"
require_relative "../ractorbench/harness/ruby_bench/crews/threads"
require_relative "../ractorbench/harness/ruby_bench/crews/processes"
require_relative "../ractorbench/harness/ruby_bench/crews/ractors"

# A run's spec lists a ruby-bench checkout's harness/loader.rb right after
# this file; its `require "harness"` must find ractorbench's (ruby_bench/).
Ractorbench::Harness::RubyBench::HARNESS_DIR = File.expand_path("../ruby_bench", __dir__)
$LOAD_PATH.unshift(Ractorbench::Harness::RubyBench::HARNESS_DIR) unless $LOAD_PATH.include?(Ractorbench::Harness::RubyBench::HARNESS_DIR)

module Ractorbench
  module Workloads
    # A benchmark of a ruby-bench checkout (`ractorbench run --ruby-bench
    # DIR`): its script's top level runs in the child as under ruby-bench,
    # its block runs once per worker and block (W x M), W passed to it as
    # ruby-bench passes the ractor count. Each model has its own crew
    # (Harness::RubyBench::Crews); other models give "not measured" rows.
    module RubyBench
      extend Harness::Primitive
      workload "ruby-bench", "a ruby-bench checkout's benchmark (run --ruby-bench DIR -w NAME): its block once per worker, " \
        "W passed to it; --param creation=untimed|timed, warmup=N"

      CREWS = {
        "serial" => Harness::RubyBench::Crews::Serial, "threads" => Harness::RubyBench::Crews::Threads,
        "processes" => Harness::RubyBench::Crews::Processes, "ractors" => Harness::RubyBench::Crews::Ractors
      }.freeze

      def self.default_params = {benchmark: "", creation: "untimed", warmup: 1}

      def self.validate(params, _count)
        if params[:benchmark].to_s.empty?
          return "it runs the benchmarks of a ruby-bench checkout: give --ruby-bench DIR (and -w NAME,... to pick some)"
        end

        Harness::ParamCheck.one_of(params, :creation, Harness::RubyBench::Round::CREATIONS) ||
          Harness::ParamCheck.integer(params, :warmup, 1, min: 0)
      end

      def self.digest(results) = Harness::RubyBench::Values.judge(results).digest

      def self.check(results, _count, _params) = Harness::RubyBench::Values.judge(results).problem

      CREWS.each do |model, crew|
        under(model) do |jobs, workers, params|
          captured = Harness::RubyBench::Script.load(params[:benchmark].to_s)
          Harness::RubyBench::Round.prepared(crew, captured, workers, jobs.size / workers, params)
        end
      end
    end
  end
end
