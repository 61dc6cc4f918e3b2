# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "../ractorbench/harness/param_check"
require_relative "../ractorbench/harness/resource_limits"

module Ractorbench
  module Workloads
    # "Ractor reconsidered" (seed 002): one receiver gathers M messages from
    # each of W senders, either waiting on all W at once (Ractor.select,
    # IO.select: the seed's O(n) select) or reading one shared mailbox.
    # Senders are started before the clock and wait for a go; each message
    # is [sender, sequence], so the check sees every one arrive exactly once.
    module FanIn
      extend Harness::Primitive
      workload "fan-in", "one receiver gathers M messages from each of W senders: --param via=select|mailbox; " \
        "ractors, threads (mailbox), processes (Ractor reconsidered)"

      VIAS = %w[select mailbox].freeze
      DONE = :done

      def self.default_params = {via: "select"}

      def self.validate(params, _count)
        Harness::ParamCheck.one_of(params, :via, VIAS)
      end

      # A message costs ~1,500 plain calls' time through a select.
      def self.estimate(count, _params, per_call) = count * 1_500 * per_call

      def self.jobs(count, _params)
        (1..count).to_a.freeze
      end

      def self.check(results, _count, _params)
        results.group_by(&:first).each do |sender, messages|
          seqs = messages.map(&:last).sort
          return "sender #{sender} delivered #{seqs.size} messages but not 0..#{seqs.size - 1} once each" unless seqs == (0...seqs.size).to_a
        end
        nil
      end

      def self.shape(jobs, workers)
        [workers, jobs.size / workers]
      end

      def self.prepared(variant, stop:)
        Harness::PreparedRun.new({"variant" => variant}, close: stop) { yield }
      end

      under "ractors" do |jobs, workers, params|
        compat = Harness::RactorCompat
        senders, each = shape(jobs, workers)
        select = params[:via].to_s == "select"
        channels = Array.new(senders) { select ? compat.select_channel : nil }
        mailbox = compat.new_channel unless select
        pool = Harness::ResourceLimits.guard("#{senders} sender ractors") do
          Array.new(senders) do |id|
            Ractor.new(id, each, channels[id] || mailbox, select) do |me, count, out, selecting|
              Ractor.receive # go
              count.times { |seq| selecting ? Harness::RactorCompat.emit(out, [me, seq]) : out << [me, seq] }
              DONE
            end
          end
        end
        finished = {}
        stop = -> { pool.each { |r| compat.value(r) unless finished[r] } }
        variant = if select
          compat.select_variant
        else
          "one shared #{compat.ports? ? "Ractor::Port" : "mailbox (Ractor.receive)"}"
        end
        prepared(variant, stop: stop) do
          pool.each { |r| r << :go }
          if select
            sources = compat.select_sources(channels, pool)
            received = []
            while received.size < senders * each
              source, message = compat.select(sources)
              next received << message unless message == DONE

              # 3.x only: select took a sender's final value as it ended.
              finished[source] = true
              sources -= [source]
            end
            received
          else
            Array.new(senders * each) { compat.receive(mailbox) }
          end
        end
      end

      under "threads" do |jobs, workers, params|
        raise Harness::Unsupported, "threads have no select over many queues; use --param via=mailbox" if params[:via].to_s == "select"

        senders, each = shape(jobs, workers)
        go = Thread::Queue.new
        mailbox = Thread::Queue.new
        pool = Harness::ResourceLimits.guard("#{senders} sender threads") do
          Array.new(senders) { |id| Thread.new { go.pop && each.times { |seq| mailbox << [id, seq] } } }
        end
        prepared("one shared Thread::Queue", stop: -> { pool.each(&:join) }) do
          senders.times { go << true }
          Array.new(senders * each) { mailbox.pop }
        end
      end

      # Fixed 8-byte records: a write that small to a pipe is atomic, so
      # senders sharing one pipe never interleave within a message.
      under "processes" do |jobs, workers, params|
        senders, each = shape(jobs, workers)
        select = params[:via].to_s == "select"
        go_r, go_w = IO.pipe
        shared = IO.pipe unless select
        pipes = Array.new(senders) { select ? IO.pipe : shared }
        pids = Harness::ResourceLimits.guard("#{senders} sender processes") do
          Array.new(senders) do |id|
            fork do
              Harness.after_fork
              go_r.read(1)
              out = pipes[id].last
              each.times { |seq| out.write([id, seq].pack("NN")) }
              exit!(0)
            end
          end
        end
        pipes.uniq.each { |_, w| w.close }
        go_r.close
        stop = lambda do
          pids.each { |pid| Process.wait(pid) }
          pipes.uniq.each { |r, _| r.close }
        end
        prepared(select ? "IO.select over one pipe per sender" : "one shared pipe", stop: stop) do
          go_w.write("g" * senders)
          go_w.close
          readers = pipes.map(&:first).uniq
          received = []
          while received.size < senders * each
            raise EOFError, "every sender ended after #{received.size} messages" if readers.empty?

            (select ? IO.select(readers).first : readers).each do |io|
              record = io.read(8)
              record ? received << record.unpack("NN") : readers.delete(io) # a sender done and gone
            end
          end
          received
        end
      end
    end
  end
end
