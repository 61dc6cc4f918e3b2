# frozen_string_literal: true

require "io/wait"
require_relative "../ractorbench/harness/async_subject"

module Ractorbench
  module Subjects
    # Concurrently's await_writable: wait, through the fiber scheduler's
    # io_wait, until an empty pipe is writable; a wait counts only when it
    # reports the pipe ready.
    module AwaitWritable
      extend Harness::AsyncSubject
      subject "await-writable", seed: "await_writable", ran: "w.wait_writable on an empty pipe (io_wait)", model: "fibers"

      def self.batch(size)
        Array.new(size) { IO.pipe }
      end

      def self.prepare
        ran = 0
        @run = ->(batch) { batch.each { |_r, w| ran += 1 if w.wait_writable } }
        counted { ran }
      end

      def self.run(batch)
        @run.call(batch)
      end
    end
  end
end
