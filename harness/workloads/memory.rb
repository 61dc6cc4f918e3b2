# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "../ractorbench/harness/param_check"
require_relative "../ractorbench/harness/resource_limits"
require_relative "../ractorbench/harness/memory"

module Ractorbench
  module Workloads
    # ruby-bench's three Ractor memory scenarios, written again here (same
    # shapes, same sizes by default) so that every model runs them:
    #
    # scenario=dead-set: W units each build a live set of M x 1,000 strings
    #   (~130 bytes each) and end; what a full GC then leaves resident is
    #   memory the dead units' sets still hold.
    # scenario=idle-garbage: W units each build such a set, drop every
    #   reference, say so and park without allocating; the collection is made
    #   while they park (a ractor's garbage may wait for the ractor to run).
    # scenario=msg-backlog: main floods each of W gated consumers (asleep
    #   for --param gate=S, 1 s by default: part of the time, as in
    #   ruby-bench) with M x 1,000 unshareable strings (~230 bytes), then
    #   :done; the copies pile up in their queues (peak), drained after.
    #
    # The time is the scenario's. kept_kb: resident memory after a full GC
    # (GC.start(global: true) where the Ruby takes it, memory_settle says
    # which) less the resident memory before the scenario; scenario_peak_kb:
    # the highest resident memory read every 5 ms during it, less the same.
    # Each unit reports its M chunks of 1,000, so the check sees every item.
    module Memory
      extend Harness::Primitive
      workload "memory", "ruby-bench's Ractor memory scenarios: --param scenario=dead-set|idle-garbage|msg-backlog, gate=S; " \
        "W units x M thousand items; kept memory after a full GC and peak memory beside the time: ractors, threads"

      SCENARIOS = %w[dead-set idle-garbage msg-backlog].freeze
      CHUNK = 1_000
      SAMPLE_EVERY = 0.005
      STOP = :stop

      def self.default_params = {scenario: "dead-set", gate: 1.0}

      def self.validate(params, _count)
        gate = params[:gate]
        Harness::ParamCheck.one_of(params, :scenario, SCENARIOS) ||
          ("gate must be a number of seconds, 0 or more, got #{gate.inspect}; e.g. --param gate=1" unless gate.is_a?(Numeric) && gate >= 0)
      end

      # An item costs ~200 plain calls' time; a backlog waits its gate too.
      def self.estimate(count, params, per_call)
        gate = params[:gate].is_a?(Numeric) ? params[:gate] : 0
        count * CHUNK * 200 * per_call + gate
      end

      def self.jobs(count, _params)
        (1..count).to_a.freeze
      end

      def self.check(results, count, _params)
        short = results.reject { |_, _, items| items == CHUNK }
        return "#{short.size} chunks held fewer than #{CHUNK} items (#{short.first.inspect})" unless short.empty?

        "expected #{count} chunks of #{CHUNK}, got #{results.size}" unless results.size == count
      end

      # Each unit's M chunks, from the items it counted.
      def self.chunks(unit, items) = Array.new(items / CHUNK) { |c| [unit, c, CHUNK] }

      def self.item(unit, i) = "worker #{unit} item #{i} " + ("y" * 100)

      def self.message(unit, i) = "consumer #{unit} message #{i} " + ("x" * 200)

      # A live set of items strings; its size.
      def self.build(unit, items)
        keep = []
        i = 0
        while i < items
          keep << item(unit, i)
          i += 1
        end
        keep
      end

      # A gated consumer: asleep for gate seconds while its queue fills, then
      # takes messages (the block) until :done; how many it took.
      def self.drain(gate)
        sleep gate
        taken = 0
        taken += 1 while yield != :done
        taken
      end

      # A full collection: of every ractor's heap where GC.start can be asked for it.
      def self.settle
        global = GC.method(:start).parameters.any? { |_, name| name == :global }
        global ? GC.start(global: true) : GC.start
        global ? "GC.start(global: true)" : "GC.start"
      end

      def self.rss_kb = Harness::Memory.status_field("VmRSS")

      # The run: base memory read before it; the scenario timed with its
      # peak sampled; kept memory read before `release` lets parked units go.
      def self.prepared(variant, params, release: nil, &scenario)
        raise Harness::Unsupported.new("no /proc/self/status to read resident memory from", scope: nil) unless rss_kb

        settle
        base = rss_kb
        metrics = {"variant" => "#{params[:scenario]}: #{variant}"}
        close = lambda do
          metrics["memory_settle"] = settle
          metrics["kept_kb"] = rss_kb - base
          release&.call
        end
        Harness::PreparedRun.new(metrics, close: close) do
          peak = base
          sampling = true
          sampler = Thread.new do
            while sampling
              peak = [peak, rss_kb].max
              sleep SAMPLE_EVERY
            end
          end
          begin
            scenario.call
          ensure
            sampling = false
            sampler.join
            metrics["scenario_peak_kb"] = [peak, rss_kb].max - base
          end
        end
      end

      under "ractors" do |jobs, workers, params|
        compat = Harness::RactorCompat
        items = jobs.size / workers * CHUNK
        gate = params[:gate].to_f
        case params[:scenario].to_s
        when "dead-set"
          prepared("W ractors build their sets and end; values taken in order", params) do
            pool = Array.new(workers) { |u| Ractor.new(u, items) { |unit, n| Memory.build(unit, n).size } }
            pool.each_with_index.flat_map { |r, u| chunks(u, compat.value(r)) }
          end
        when "idle-garbage"
          pool = []
          release = lambda do
            pool.each { |r| r.send(STOP) }
            pool.each { |r| compat.value(r) }
          end
          prepared("W ractors build their sets, drop them, report and park on Ractor.receive", params, release: release) do
            inbox = compat.new_channel
            Array.new(workers) do |u|
              pool << Ractor.new(inbox, u, items) do |out, unit, n|
                size = Memory.build(unit, n).size
                out.send([unit, size])
                Ractor.receive
                nil
              end
            end
            Array.new(workers) { compat.receive(inbox) }.sort.flat_map { |u, size| chunks(u, size) }
          end
        when "msg-backlog"
          prepared("main floods W gated consumer ractors (Ractor#send, copied), then :done", params) do
            pool = Array.new(workers) { Ractor.new(gate) { |wait| Memory.drain(wait) { Ractor.receive } } }
            pool.each_with_index do |r, u|
              items.times { |i| r.send(message(u, i)) }
              r.send(:done)
            end
            pool.each_with_index.flat_map { |r, u| chunks(u, compat.value(r)) }
          end
        end
      end

      under "threads" do |jobs, workers, params|
        items = jobs.size / workers * CHUNK
        gate = params[:gate].to_f
        case params[:scenario].to_s
        when "dead-set"
          prepared("W threads build their sets and end; Thread#value", params) do
            Array.new(workers) { |u| Thread.new { build(u, items).size } }.each_with_index.flat_map { |t, u| chunks(u, t.value) }
          end
        when "idle-garbage"
          parked = Thread::Queue.new
          pool = []
          release = lambda do
            pool.size.times { parked << STOP }
            pool.each(&:join)
          end
          prepared("W threads build their sets, drop them, report and park on a Thread::Queue", params, release: release) do
            inbox = Thread::Queue.new
            workers.times { |u| pool << Thread.new { inbox << [u, build(u, items).size] && parked.pop } }
            Array.new(workers) { inbox.pop }.sort.flat_map { |u, size| chunks(u, size) }
          end
        when "msg-backlog"
          prepared("main floods W gated consumer threads, a Thread::Queue each (references), then :done", params) do
            queues = Array.new(workers) { Thread::Queue.new }
            pool = queues.map do |queue|
              Thread.new { drain(gate) { queue.pop } }
            end
            queues.each_with_index do |queue, u|
              items.times { |i| queue << message(u, i) }
              queue << :done
            end
            pool.each_with_index.flat_map { |t, u| chunks(u, t.value) }
          end
        end
      end

      under "processes" do |_jobs, _workers, _params|
        raise Harness::Unsupported, "memory measures one shared heap: a process's memory goes back to the OS when it " \
          "exits, and a pipe's backlog is the kernel's"
      end

      under "fibers" do |_jobs, _workers, _params|
        raise Harness::Unsupported, "fibers share one thread's heap as threads do, one at a time: the threads row is the " \
          "shared-heap comparison"
      end
    end
  end
end
