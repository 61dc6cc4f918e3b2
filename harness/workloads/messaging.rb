# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "../ractorbench/harness/param_check"
require_relative "../ractorbench/harness/resource_limits"

module Ractorbench
  module Workloads
    # Message passing as Ruby's implementers measure it, under each model's
    # own channel: ractors (a Ractor::Port where there are ports, the 3.x
    # mailbox elsewhere), threads with Thread::Queue, processes over pipes
    # (Marshal, length-prefixed), fibers with resume/yield (no scheduler).
    #
    # shape=one-way: W senders flood one receiver with M messages each (W=1
    # is 1->1, W>1 is N->1). shape=ping-pong: main sends M messages to each
    # of W echo servers, W in flight at a time, and gets each back whole.
    # shape=request: the same round trips, but a server answers a request
    # with a small reply ([sender, seq, size]) instead of echoing it.
    #
    # payload=string: a small fresh string a message; hash: a fresh ~1 KB
    # Hash (16 strings of 60 bytes) a message, copied where the model copies;
    # frozen: one such Hash made deeply frozen (shareable) once and shared;
    # moved: a fresh Hash a message, moved (ractors only: threads and fibers
    # pass a reference anyway, processes must serialise).
    #
    # Every message is [sender, seq, payload]; the receiver keeps [sender,
    # seq, payload size], so the check sees each sender's messages arrive
    # once each, in the order sent (each sender's channel is FIFO), whole.
    module Messaging
      extend Harness::Primitive
      workload "messaging", "message passing: --param shape=one-way|ping-pong|request payload=string|hash|frozen|moved; " \
        "ractors, threads, processes, fibers; W senders or servers x M messages"

      SHAPES = %w[one-way ping-pong request].freeze
      PAYLOADS = %w[string hash frozen moved].freeze
      STOP = :stop
      ENTRIES = 16
      STRING_SIZE = 11

      def self.default_params = {shape: "one-way", payload: "string"}

      def self.validate(params, _count)
        Harness::ParamCheck.one_of(params, :shape, SHAPES) || Harness::ParamCheck.one_of(params, :payload, PAYLOADS)
      end

      # A message costs ~500 plain calls' time through a ractor's mailbox
      # (a process's Marshal and pipe, the dearest, ~2,000).
      def self.estimate(count, _params, per_call) = count * 2_000 * per_call

      def self.jobs(count, _params)
        (1..count).to_a.freeze
      end

      def self.build_hash(seq)
        (0...ENTRIES).to_h { |i| [format("k%02d", i), format("%04d-%s", seq % 10_000, "x" * 55)] }
      end

      # What every shareable payload points to: built once, never copied.
      SHARED = Ractor.make_shareable(build_hash(0))

      def self.payload(kind, seq)
        case kind
        when "string" then format("msg%08d", seq)
        when "frozen" then SHARED
        else build_hash(seq)
        end
      end

      def self.size_of(kind) = (kind == "string") ? STRING_SIZE : ENTRIES

      # What a receiver keeps of a message, and what a server replies.
      def self.kept((sender, seq, payload)) = [sender, seq, payload.size]

      # The same jobs may be W senders of M or one sender of W x M, so the
      # digest is what does not depend on W (how many messages arrived, of
      # which size); `check` sees each sender's sequence.
      def self.digest(results)
        require "digest/sha1"
        Digest::SHA1.base64digest([results.size, results.map(&:last).tally.sort].inspect)
      end

      def self.check(results, count, params)
        size = size_of(params[:payload].to_s)
        wrong = results.find { |_, _, got| got != size }
        return "a payload arrived with #{wrong[2]} entries, not #{size}" if wrong
        return "expected #{count} messages, got #{results.size}" unless results.size == count

        results.group_by(&:first).each do |sender, messages|
          seqs = messages.map { |m| m[1] }
          return "sender #{sender}'s #{seqs.size} messages did not arrive as 0..#{seqs.size - 1} in order" unless seqs == (0...seqs.size).to_a
        end
        nil
      end

      def self.round_trip?(params) = params[:shape].to_s != "one-way"

      # [peers, messages each, payload, shape]; a model with nothing to move
      # (why: [model, reason]) refuses payload=moved.
      def self.plan(jobs, workers, params, refuse_move: nil)
        not_moved(*refuse_move) if refuse_move && params[:payload].to_s == "moved"
        [workers, jobs.size / workers, params[:payload].to_s, params[:shape].to_s]
      end

      # The request's reply, or the message itself echoed (ping-pong).
      def self.answer(message, shape) = (shape == "request") ? kept(message) : message

      # What main keeps of an answer: a reply as it is, an echo as a message.
      def self.kept_answer(answer, shape) = (shape == "request") ? answer : kept(answer)

      def self.prepared(params, variant, stop:, metrics: {}, &measured)
        what = round_trip?(params) ? "round trips" : "messages"
        metrics["variant"] = "#{what}: #{variant}"
        Harness::PreparedRun.new(metrics, close: stop, &measured)
      end

      # Whether the sender lost a payload it moved: reading it must raise.
      def self.moved_away?(payload)
        payload.size
        false
      rescue Ractor::MovedError
        true
      end

      def self.not_moved(model, why)
        raise Harness::Unsupported, "payload=moved is for ractors: #{model} #{why}"
      end

      # One-way: senders wait for a go, then each floods main's channel.
      # Round trips: each server answers main's channel until STOP.
      under "ractors" do |jobs, workers, params|
        compat = Harness::RactorCompat
        peers, each, kind, shape = plan(jobs, workers, params)
        move = kind == "moved"
        inbox = compat.new_channel
        channel = compat.ports? ? "a Ractor::Port" : "main's mailbox (Ractor#send)"
        how = {"moved" => "moved (send move: true)", "frozen" => "shared (deeply frozen)"}.fetch(kind, "copied")
        pool = Harness::ResourceLimits.guard("#{peers} ractors") do
          Array.new(peers) do |id|
            if round_trip?(params)
              Ractor.new(inbox, shape, move) do |out, asked, moving|
                while (message = Ractor.receive) != STOP
                  out.send(Messaging.answer(message, asked), move: moving && asked == "ping-pong")
                end
                nil
              end
            else
              Ractor.new(inbox, id, each, kind) do |out, me, count, payload_kind|
                Ractor.receive # go
                unusable = nil
                count.times do |seq|
                  payload = Messaging.payload(payload_kind, seq)
                  out.send([me, seq, payload], move: payload_kind == "moved")
                  unusable = Messaging.moved_away?(payload) if unusable.nil? && payload_kind == "moved"
                end
                unusable
              end
            end
          end
        end
        metrics = {}
        stop = lambda do
          pool.each { |r| r.send(STOP) } if round_trip?(params)
          values = pool.map { |r| compat.value(r) }
          metrics["moved_unusable"] = values.all? if move && !round_trip?(params)
        end
        if round_trip?(params)
          prepared(params, "main to W server ractors (Ractor#send), answers to #{channel}; payload #{how}", stop: stop, metrics: metrics) do
            results = []
            each.times do |seq|
              pool.each_with_index do |server, id|
                payload = payload(kind, seq)
                server.send([id, seq, payload], move: move)
                metrics["moved_unusable"] = moved_away?(payload) if move && metrics["moved_unusable"].nil?
              end
              peers.times { results << kept_answer(compat.receive(inbox), shape) }
            end
            results
          end
        else
          prepared(params, "W sender ractors to #{channel}; payload #{how}", stop: stop, metrics: metrics) do
            pool.each { |r| r.send(:go) }
            Array.new(peers * each) { kept(compat.receive(inbox)) }
          end
        end
      end

      # Threads share memory: a message is a reference, whatever its payload.
      under "threads" do |jobs, workers, params|
        peers, each, kind, shape = plan(jobs, workers, params, refuse_move: ["threads", "pass a reference, so there is nothing to move"])
        inbox = Thread::Queue.new
        if round_trip?(params)
          queues = Array.new(peers) { Thread::Queue.new }
          pool = Harness::ResourceLimits.guard("#{peers} threads") do
            queues.map do |queue|
              Thread.new do
                while (message = queue.pop) != STOP
                  inbox << answer(message, shape)
                end
              end
            end
          end
          stop = -> { queues.each { |q| q << STOP } && pool.each(&:join) }
          prepared(params, "main to W server threads, a Thread::Queue each, answers to one Thread::Queue; payload by reference", stop: stop) do
            results = []
            each.times do |seq|
              queues.each_with_index { |queue, id| queue << [id, seq, payload(kind, seq)] }
              peers.times { results << kept_answer(inbox.pop, shape) }
            end
            results
          end
        else
          go = Thread::Queue.new
          pool = Harness::ResourceLimits.guard("#{peers} threads") do
            Array.new(peers) do |id|
              Thread.new { go.pop && each.times { |seq| inbox << [id, seq, payload(kind, seq)] } }
            end
          end
          prepared(params, "W sender threads to one Thread::Queue; payload by reference", stop: -> { pool.each(&:join) }) do
            peers.times { go << true }
            Array.new(peers * each) { kept(inbox.pop) }
          end
        end
      end

      # Marshal, length-prefixed, one pipe per sender (or per direction per
      # server): bytes cross, so every payload is a copy.
      under "processes" do |jobs, workers, params|
        peers, each, kind, shape = plan(jobs, workers, params, refuse_move: ["processes", "copy every message through a pipe, so there is nothing to move"])
        go_r, go_w = IO.pipe
        ups = Array.new(peers) { IO.pipe } # child -> main
        downs = Array.new(peers) { IO.pipe } # main -> child (round trips)
        pids = Harness::ResourceLimits.guard("#{peers} processes") do
          Array.new(peers) do |id|
            fork do
              Harness.after_fork
              out = ups[id].last
              if round_trip?(params)
                input = downs[id].first
                while (message = Wire.read(input)) != STOP
                  Wire.write(out, answer(message, shape))
                end
              else
                go_r.read(1)
                each.times { |seq| Wire.write(out, [id, seq, payload(kind, seq)]) }
              end
              out.flush
              exit!(0)
            end
          end
        end
        ups.each { |_, w| w.close }
        downs.each { |r, _| r.close }
        go_r.close
        stop = lambda do
          downs.each { |_, w| Wire.write(w, STOP) && w.close unless w.closed? } if round_trip?(params)
          go_w.close unless go_w.closed?
          pids.each { |pid| Process.wait(pid) }
          ups.each { |r, _| r.close }
        end
        readers = ups.map(&:first)
        if round_trip?(params)
          prepared(params, "main to W server processes over two pipes each (Marshal)", stop: stop) do
            results = []
            each.times do |seq|
              downs.each_with_index { |(_, w), id| Wire.write(w, [id, seq, payload(kind, seq)]) }
              readers.each { |r| results << kept_answer(Wire.read(r), shape) }
            end
            results
          end
        else
          prepared(params, "W sender processes, a pipe each, read with IO.select (Marshal)", stop: stop) do
            go_w.write("g" * peers)
            go_w.close
            left = readers.to_h { |r| [r, each] }
            results = []
            until left.empty?
              IO.select(left.keys).first.each do |io|
                results << kept(Wire.read(io))
                left.delete(io) if (left[io] -= 1).zero?
              end
            end
            results
          end
        end
      end

      # Coroutines on one thread: a message is a resume or a yield.
      under "fibers" do |jobs, workers, params|
        peers, each, kind, shape = plan(jobs, workers, params, refuse_move: ["fibers", "pass a reference, so there is nothing to move"])
        if round_trip?(params)
          servers = Array.new(peers) { Fiber.new { |message| loop { message = Fiber.yield(answer(message, shape)) } } }
          prepared(params, "main resumes W server fibers with each message, the answer yielded back (no scheduler)", stop: nil) do
            results = []
            each.times do |seq|
              servers.each_with_index { |server, id| results << kept_answer(server.resume([id, seq, payload(kind, seq)]), shape) }
            end
            results
          end
        else
          senders = Array.new(peers) { |id| Fiber.new { each.times { |seq| Fiber.yield([id, seq, payload(kind, seq)]) } } }
          prepared(params, "main resumes W sender fibers in turn, each yields a message (no scheduler)", stop: nil) do
            results = []
            each.times { senders.each { |sender| results << kept(sender.resume) } }
            results
          end
        end
      end

      # A message over a pipe: its Marshal dump's length, then the dump.
      module Wire
        module_function

        def write(io, object)
          data = Marshal.dump(object)
          io.write([data.bytesize].pack("N"), data)
        end

        def read(io)
          head = io.read(4) or raise EOFError, "a peer process closed its pipe early"
          Marshal.load(io.read(head.unpack1("N")))
        end
      end
    end
  end
end
