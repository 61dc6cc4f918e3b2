# frozen_string_literal: true

require_relative "../ractorbench/harness/subject"

module Ractorbench
  module Subjects
    # Nothing but a counter: the harness's empty loop plus one local
    # increment, so its net cost (once the empty loop is subtracted) shows
    # how close to zero the subtraction gets. Not in the seed's tables.
    module Empty
      extend Harness::Subject
      subject "empty", seed: "(none: the empty loop)", ran: "batch.each { n += 1 }", model: "serial"

      def self.prepare
        ran = 0
        @run = ->(batch) { batch.each { ran += 1 } }
        counted { ran }
      end

      def self.run(batch)
        @run.call(batch)
      end
    end
  end
end
