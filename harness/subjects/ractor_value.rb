# frozen_string_literal: true

require_relative "../ractorbench/harness/subject"
require_relative "../ractorbench/harness/ractor_compat"

module Ractorbench
  module Subjects
    # The ractors model's unit of concurrency, created and its value taken.
    # A ractor cannot touch the counter, so each returns 1 and the counter
    # adds up what came back.
    module RactorValue
      extend Harness::Subject
      subject "ractor-value", seed: "(none: a ractor)",
        ran: "Ractor.new { 1 }, then its value (#{(defined?(Ractor) && Ractor.method_defined?(:value)) ? "Ractor#value" : "Ractor#take"})", model: "ractors"

      def self.unsupported_reason
        "this Ruby has no Ractor" unless Harness::RactorCompat.available?
      end

      def self.prepare
        ran = 0
        compat = Harness::RactorCompat
        @run = ->(batch) { batch.each { ran += compat.value(Ractor.new { 1 }) } }
        counted { ran }
      end

      def self.run(batch)
        @run.call(batch)
      end
    end
  end
end
