# frozen_string_literal: true

require_relative "../ractorbench/harness/subject"

module Ractorbench
  module Subjects
    # A fiber without any scheduler: what evaluating a proc in a fiber costs
    # before a scheduler adds its bookkeeping (the seed's first explanation).
    module FiberResume
      extend Harness::Subject
      subject "fiber-resume", seed: "(none: a raw fiber)", ran: "Fiber.new { }.resume", model: "serial"

      def self.prepare
        ran = 0
        @body = proc { ran += 1 }
        counted { ran }
      end

      def self.run(batch)
        body = @body
        batch.each { Fiber.new(&body).resume }
      end
    end
  end
end
