# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "../ractorbench/harness/param_check"
require_relative "../ractorbench/harness/resource_limits"

module Ractorbench
  module Workloads
    # "Ractor reconsidered" (seed 002): a ring of N nodes (threads with a
    # queue each, ractors with send/receive, or fibers with transfer); main
    # sends a token round it W x M times. Each node adds one to the token, so
    # every lap's result is the hops it really made, checked against N.
    # Building and stopping the ring is outside the timed span, as in the
    # seed ("time of making threads/ractors is excluded").
    module Ring
      extend Harness::Primitive
      workload "ring", "a token passed round a ring of N nodes W x M times: threads, ractors, fibers; --param nodes=N (Ractor reconsidered)"

      STOP = :stop

      def self.default_params = {nodes: 100}

      def self.validate(params, _count)
        Harness::ParamCheck.integer(params, :nodes, 100, min: 1)
      end

      # A hop costs ~400 plain calls' time (a ractor's send and receive).
      def self.estimate(count, params, per_call)
        nodes = params[:nodes]
        count * nodes * 400 * per_call if nodes.is_a?(Integer)
      end

      # The ring's nodes are all alive at once, whatever W is.
      def self.concurrency(_workers, params) = params[:nodes].is_a?(Integer) ? params[:nodes] : 0

      def self.jobs(count, _params)
        (1..count).to_a.freeze
      end

      def self.check(results, _count, params)
        nodes = params.fetch(:nodes)
        wrong = results.reject { |hops| hops == nodes }
        "each lap should make #{nodes} hops; #{wrong.size} laps made #{wrong.first.inspect}" unless wrong.empty?
      end

      # Set-up common to every model: build (untimed, but recorded), then
      # time the laps; `lap` sends the token once round and returns its count.
      def self.prepared(variant, jobs, params, stop: nil)
        started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        lap = Harness::ResourceLimits.guard("a ring of #{params[:nodes]} #{variant[/\A\w+/]}") { yield }
        metrics = {"variant" => variant, "nodes" => params[:nodes],
                   "build_time" => Process.clock_gettime(Process::CLOCK_MONOTONIC) - started}
        Harness::PreparedRun.new(metrics, close: stop) do
          jobs.map { lap.call }.tap { |laps| metrics["hops"] = laps.sum }
        end
      end

      # One node: receive, add one, pass on; pass STOP on and end.
      def self.relay(input, output)
        loop do
          token = input.call
          output << ((token == STOP) ? token : token + 1)
          break if token == STOP
        end
      end

      under "threads" do |jobs, _workers, params|
        queues = Array.new(params[:nodes] + 1) { Thread::Queue.new }
        threads = nil
        stop = lambda do
          queues.first << STOP
          queues.last.pop
          threads.each(&:join)
        end
        prepared("threads with a Thread::Queue each", jobs, params, stop: stop) do
          threads = Array.new(params[:nodes]) do |i|
            Thread.new(queues[i], queues[i + 1]) { |inbox, outbox| relay(-> { inbox.pop }, outbox) }
          end
          -> { (queues.first << 0) && queues.last.pop }
        end
      end

      under "ractors" do |jobs, _workers, params|
        compat = Harness::RactorCompat
        back = compat.new_channel
        nodes = []
        stop = lambda do
          nodes.last.send(STOP)
          compat.receive(back)
          nodes.each { |r| compat.value(r) }
        end
        prepared("ractors with send/receive", jobs, params, stop: stop) do
          params[:nodes].times do
            nodes << Ractor.new(nodes.last || back) { |out| Ring.relay(-> { Ractor.receive }, out) }
          end
          first = nodes.last
          -> { first.send(0) && compat.receive(back) }
        end
      end

      # Fiber#transfer hands the token straight to the next fiber; the last
      # transfers it back to the main fiber. Stopped fibers need no teardown.
      under "fibers" do |jobs, _workers, params|
        prepared("fibers with Fiber#transfer (no scheduler)", jobs, params) do
          first = Array.new(params[:nodes]).inject(Fiber.current) do |target, _|
            Fiber.new { |token| loop { token = target.transfer(token + 1) } }
          end
          -> { first.transfer(0) }
        end
      end
    end
  end
end
