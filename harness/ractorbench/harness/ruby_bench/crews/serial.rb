# frozen_string_literal: true

require_relative "crew"

module Ractorbench
  module Harness
    module RubyBench
      module Crews
        # serial: the W workers' parts one after another on the main thread,
        # every warm-up before the clock, then W x M blocks in turn.
        class Serial < Crew
          KIND = :serial

          def variant = "serial: the block W times in turn on the main thread"

          # Errors of each worker's preparation (nil where it went well).
          def start
            @workers = Array.new(@plan.workers) { |i| Worker.new(@captured, i, @plan).tap(&:prepare) }
            @workers.map(&:error)
          end

          def finish = @workers.map(&:measure)
        end
      end
    end
  end
end
