# frozen_string_literal: true

require "io/wait"
require_relative "../ractorbench/harness/async_subject"

module Ractorbench
  module Subjects
    # Concurrently's await_readable: wait, through the fiber scheduler's
    # io_wait, until a pipe is readable. Each batch element is a pipe with a
    # byte in it that nobody reads, so it stays readable; a wait counts only
    # when it reports the pipe ready.
    module AwaitReadable
      extend Harness::AsyncSubject
      subject "await-readable", seed: "await_readable", ran: "r.wait_readable on a pipe holding data (io_wait)", model: "fibers"

      def self.batch(size)
        Array.new(size) { IO.pipe.tap { |_r, w| w.write("0") } }
      end

      def self.prepare
        ran = 0
        @run = ->(batch) { batch.each { |r, _w| ran += 1 if r.wait_readable } }
        counted { ran }
      end

      def self.run(batch)
        @run.call(batch)
      end
    end
  end
end
