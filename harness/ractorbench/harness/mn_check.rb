# frozen_string_literal: true

require_relative "memory"
require_relative "task_room"

module Ractorbench
  module Harness
    # Whether the M:N scheduler is really in force. Ruby has no API for it
    # (RUBY_MN_THREADS and RUBY_MAX_CPU are silently ignored before 3.3), so
    # this watches what it does: under 1:1 every waiting Ruby thread (or
    # ractor) holds its own native thread; under M:N waiting ones hold none.
    # Linux only (/proc/self/status); elsewhere the answer is "unverified".
    module MNCheck
      module_function

      # More waiting units than M:N would give native threads (RUBY_MAX_CPU,
      # default 8), so the two cases cannot look alike. The driver sizes a
      # plan's probes by the same count (Plan::Capacity).
      def units(max_cpu = ENV["RUBY_MAX_CPU"].to_i)
        [max_cpu, 8].max * 2 + 8
      end

      # nil unless an M:N setting is asked for in this process's environment.
      def call
        return nil unless ENV["RUBY_MN_THREADS"] || ENV["RUBY_MAX_CPU"]

        {"threads" => (threads if ENV["RUBY_MN_THREADS"]), "ractors" => (ractors if ENV["RUBY_MAX_CPU"])}.compact
      end

      def threads
        queue = Thread::Queue.new
        watch do
          waiting = Array.new(units) { Thread.new { queue.pop } }
          Thread.pass until waiting.all? { |t| t.status == "sleep" }
          -> { units.times { queue << nil } && waiting.each(&:join) }
        end
      end

      def ractors
        return {"active" => nil, "why" => "this Ruby has no Ractor"} unless defined?(::Ractor) && ::Ractor.respond_to?(:new)

        Warning[:experimental] = false if Warning.respond_to?(:[]=)
        watch do
          waiting = Array.new(units) { ::Ractor.new { ::Ractor.receive } }
          sleep 0.05 # no portable way to ask whether a ractor is blocked yet
          lambda do
            waiting.each { |r| r << nil }
            waiting.each { |r| ::Ractor.method_defined?(:value) ? r.value : r.take }
          end
        end
      end

      # Starts the waiting units (the block returns how to release them)
      # and counts this process's native threads meanwhile. The total, not
      # the increase: a 1:1 Ruby reuses native threads it cached earlier.
      def watch
        return {"active" => nil, "why" => "cannot count native threads (no /proc/self/status)"} unless native_threads

        # The check caps its own size: never more units than the machine can
        # spare, whatever RUBY_MAX_CPU says (the driver refuses such values
        # first; this holds for a probe started any other way).
        room, limit = TaskRoom.share
        if room && units > room
          return {"active" => nil, "why" => "checking needs #{units} waiting units at once, more than this machine can " \
            "spare (#{room} tasks: half the room left under #{limit.name})"}
        end

        release = yield
        during = native_threads
        release.call
        {"active" => during <= units, "units" => units, "native_threads" => during}
      end

      def native_threads
        Memory.status_field("Threads")
      end
    end
  end
end
