# frozen_string_literal: true

require_relative "../ractorbench/harness/subject"

module Ractorbench
  module Subjects
    # The processes model's unit of concurrency: fork a child and wait for
    # it. The child proves it ran by its exit status.
    module ForkWait
      extend Harness::Subject
      subject "fork-wait", seed: "(none: a process)", ran: "fork { exit!(42) }, then Process.wait2", model: "processes"

      RAN = 42

      def self.unsupported_reason
        "this Ruby cannot fork" unless Process.respond_to?(:fork)
      end

      def self.prepare
        ran = 0
        @run = lambda do |batch|
          batch.each do
            pid = fork { exit!(RAN) }
            ran += 1 if Process.wait2(pid).last.exitstatus == RAN
          end
        end
        counted { ran }
      end

      def self.run(batch)
        @run.call(batch)
      end
    end
  end
end
