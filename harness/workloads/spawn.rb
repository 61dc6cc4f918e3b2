# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "../ractorbench/harness/param_check"
require_relative "../ractorbench/harness/resource_limits"

module Ractorbench
  module Workloads
    # "Ractor reconsidered" (seed 002): create W units, then join them all,
    # with GC enabled or disabled; M rounds of that (the seed's experiment
    # is W = 10,000, M = 1). Each unit returns its number and its own
    # identity, so the check proves that W x M distinct units ran, each once.
    module Spawn
      extend Harness::Primitive
      workload "spawn", "create W units then join them, M rounds: threads, ractors, fibers, processes; --param gc=on|off (Ractor reconsidered)"

      def self.default_params = {gc: "on"}

      def self.validate(params, _count)
        Harness::ParamCheck.one_of(params, :gc, %w[on off])
      end

      # A unit costs ~1,800 plain calls' time as a thread and ~100,000 as a
      # forked process (the dearest model, to be safe).
      def self.estimate(count, _params, per_call) = count * 100_000 * per_call

      def self.jobs(count, _params)
        (1..count).to_a.freeze
      end

      # Every model agrees on the unit numbers; identities differ by nature.
      def self.digest(results)
        require "digest/sha1"
        Digest::SHA1.base64digest(results.map(&:first).sort.inspect)
      end

      def self.check(results, count, _params)
        numbers = results.map(&:first).sort
        return "units should return 1..#{count} once each; got #{numbers.uniq.size} distinct numbers" unless numbers == (1..count).to_a

        ids = results.map(&:last)
        "expected #{count} distinct units, saw #{ids.uniq.size} (#{ids.count(nil)} failed)" unless ids.compact.uniq.size == count
      end

      # Setup shared by every model: GC off before the clock starts (and
      # back on after it stops), refusals by the OS named, figures recorded.
      # The block creates and joins one round's units: (batch, round) -> results.
      def self.prepared(variant, jobs, workers, params, &create_and_join)
        gc_off = params[:gc].to_s == "off"
        GC.disable if gc_off
        metrics = {"variant" => variant, "gc" => gc_off ? "off" : "on"}
        Harness::PreparedRun.new(metrics, close: -> { GC.enable if gc_off }) do
          results = Harness::ResourceLimits.guard("#{workers} #{variant[/\A\w+/]} at a time") do
            jobs.each_slice(workers).with_index.flat_map { |batch, round| create_and_join.call(batch, round) }
          end
          metrics["units"] = results.map(&:last).compact.uniq.size
          results
        end
      end

      under "threads" do |jobs, workers, params|
        prepared("threads: Thread.new, then Thread#value", jobs, workers, params) do |batch, _round|
          batch.map { |i| Thread.new(i) { |n| [n, Thread.current.object_id] } }.map(&:value)
        end
      end

      under "ractors" do |jobs, workers, params|
        compat = Harness::RactorCompat
        prepared("ractors: Ractor.new, then #{Ractor.method_defined?(:value) ? "Ractor#value" : "Ractor#take"}", jobs, workers, params) do |batch, _round|
          batch.map { |i| Ractor.new(i) { |n| [n, Ractor.current.object_id] } }.map { |r| compat.value(r) }
        end
      end

      under "fibers" do |jobs, workers, params|
        prepared("fibers: Fiber.new, then Fiber#resume (no scheduler)", jobs, workers, params) do |batch, _round|
          batch.map { |i| Fiber.new { [i, Fiber.current.object_id] } }.map(&:resume)
        end
      end

      # A forked unit cannot hand back a Ruby object; its pid (unique within
      # a round; pids are reused after) and a clean exit are its identity.
      under "processes" do |jobs, workers, params|
        prepared("processes: fork, then Process.wait2", jobs, workers, params) do |batch, round|
          batch.map { |i| [i, fork { exit!(0) }] }.map { |i, pid| [i, ([round, pid] if Process.wait2(pid).last.success?)] }
        end
      end
    end
  end
end
