# frozen_string_literal: true

require_relative "../ractorbench/harness/subject"

module Ractorbench
  module Subjects
    # The threads model's unit of concurrency, created and joined.
    module ThreadJoin
      extend Harness::Subject
      subject "thread-join", seed: "(none: a thread)", ran: "Thread.new { }.join", model: "threads"

      def self.prepare
        ran = 0
        @body = proc { ran += 1 }
        counted { ran }
      end

      def self.run(batch)
        body = @body
        batch.each { Thread.new(&body).join }
      end
    end
  end
end
