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

      # Fan-in through Ractor.select, one channel per sender. On 4.x select
      # waits on ports (a ractor in select means its termination), so each
      # sender gets a Port; 3.x has no ports, so select waits on the sender
      # ractors themselves and they hand each message over with Ractor.yield.
      def select_channel
        ports? ? ::Ractor::Port.new : nil
      end

      # In a sender: pass a message to its select channel.
      def emit(channel, message)
        channel ? channel.send(message) : ::Ractor.yield(message)
      end

      # What main waits on: the senders' ports (4.x) or the senders (3.x).
      def select_sources(channels, senders)
        ports? ? channels : senders
      end

      # [source, message]. On 3.x the message may be a sender's final value
      # once it has ended; that value is then taken and must not be asked again.
      def select(sources)
        ::Ractor.select(*sources)
      end

      def select_variant
        ports? ? "Ractor.select over one Ractor::Port per sender" : "Ractor.select over the sender ractors (Ractor.yield)"
      end

      def silence_experimental_warning
        Warning[:experimental] = false if Warning.respond_to?(:[]=)
      end
    end
  end
end
