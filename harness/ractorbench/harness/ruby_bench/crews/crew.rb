# frozen_string_literal: true

require_relative "../worker"

module Ractorbench
  module Harness
    module RubyBench
      # W workers of one kind, run as a round (Round): `start` makes them and
      # has each prepare (the errors of those that could not, nil for the
      # others), `finish` starts their measured blocks and returns their
      # reports, `abort` lets prepared workers go without measuring.
      # `metrics`: what only the crew saw, for the run's record.
      module Crews
        class Crew
          def initialize(captured, plan)
            @captured = captured
            @plan = plan
          end

          def abort
          end

          def metrics = {}
        end
      end
    end
  end
end
