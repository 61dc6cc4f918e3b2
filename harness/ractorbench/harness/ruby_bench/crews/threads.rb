# frozen_string_literal: true

require_relative "crew"

module Ractorbench
  module Harness
    module RubyBench
      module Crews
        # threads: W threads, each warmed up, waiting at a gate; the clock
        # runs from opening it until every thread has answered.
        class Threads < Crew
          KIND = :thread

          def variant = "threads: W threads, one block each"

          def start
            @ready = Queue.new
            @gate = Queue.new
            @threads = Array.new(@plan.workers) { |i| Thread.new(i) { |index| serve(index) } }
            Array.new(@plan.workers) { @ready.pop }.sort_by(&:first).map(&:last)
          end

          def finish
            @plan.workers.times { @gate << :go }
            @threads.map(&:value)
          end

          def abort
            @plan.workers.times { @gate << :stop }
            @threads.each(&:join)
          end

          private

          def serve(index)
            worker = Worker.new(@captured, index, @plan)
            worker.prepare
            @ready << [index, worker.error]
            worker.measure if @gate.pop == :go
          end
        end
      end
    end
  end
end
