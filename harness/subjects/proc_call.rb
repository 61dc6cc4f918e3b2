# frozen_string_literal: true

require_relative "../ractorbench/harness/subject"

module Ractorbench
  module Subjects
    # The seed's baseline: a plain proc that does nothing but be counted.
    module ProcCall
      extend Harness::Subject
      subject "proc-call", seed: "proc.call", ran: "proc { }.call", model: "serial"

      def self.prepare
        ran = 0
        @test_proc = proc { ran += 1 }
        counted { ran }
      end

      def self.run(batch)
        test_proc = @test_proc
        batch.each { test_proc.call }
      end
    end
  end
end
