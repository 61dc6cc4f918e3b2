# frozen_string_literal: true

module Ractorbench
  module Harness
    # One place that knows how the Ractor API differs between Ruby 3.x and 4.x.
    # Everything is feature-detected; RUBY_VERSION is never compared.
    module RactorCompat
      module_function

      def available?
        Object.const_defined?(:Ractor) && ::Ractor.respond_to?(:new)
      end

      def ports?
        defined?(::Ractor::Port) ? true : false
      end

      # A channel a worker can `send` results to and only the current ractor
      # reads: a Ractor::Port on 4.x, the current ractor's own mailbox on 3.x.
      def new_channel
        ports? ? ::Ractor::Port.new : ::Ractor.current
      end

      def receive(channel)
        ports? ? channel.receive : ::Ractor.receive
      end

      # A ractor's final value. On 4.x `value` moves it out, so only one
      # consumer may ever ask; on 3.x `take` does the same job.
      def value(ractor)
        ::Ractor.method_defined?(:value) ? ractor.value : ractor.take
      end

      def silence_experimental_warning
        Warning[:experimental] = false if Warning.respond_to?(:[]=)
      end
    end
  end
end
