# frozen_string_literal: true

require_relative "high_descriptor"

module Ractorbench
  module Harness
    # Loads the `async` gem (Ruby's standard Fiber::Scheduler implementation)
    # for the fibers model and the ops-per-second subjects that need it. It
    # is loaded only when asked for, so a Ruby without it still runs every
    # other model; those rows then say why they were skipped.
    module AsyncSupport
      module_function

      # nil once async is loaded, else why it cannot be.
      def unsupported_reason
        return @unsupported_reason if defined?(@unsupported_reason)

        @unsupported_reason = load_async
      end

      def version
        defined?(::Async::VERSION) ? ::Async::VERSION : nil
      end

      # Runs the block in a task of a fresh reactor (Kernel#Sync), returning
      # the block's value once every task it started has finished. The
      # reactor's descriptors land above those a run's code might close by
      # number (HighDescriptor.reserve_low, taken when async loaded).
      def run(&block)
        reason = unsupported_reason
        raise LoadError, reason if reason

        HighDescriptor.reserve_low
        Sync(&block)
      end

      def load_async
        return "this Ruby has no Fiber::Scheduler (Fiber.set_scheduler)" unless Fiber.respond_to?(:set_scheduler)

        choose_version
        require "async"
        # Each reactor's descriptors above those a run's code might close by
        # number: the placeholders are opened here, before any clock starts.
        HighDescriptor.reserve_low
        nil
      rescue LoadError => e
        "async not available on #{RUBY_ENGINE} #{RUBY_ENGINE_VERSION} (#{e.message.lines.first.strip})"
      end

      # async 2.24 dropped Ruby 3.1: its scheduler calls IO#timeout (Ruby
      # >= 3.2) whenever a fiber waits for IO, so on a Ruby without IO#timeout
      # every IO wait raises NoMethodError. There, ask RubyGems for an older
      # async; if none is installed that is a Gem::MissingSpecVersionError,
      # a LoadError, and the rows say so.
      def choose_version
        return if IO.method_defined?(:timeout) || defined?(::Async::VERSION) || !defined?(::Gem)

        gem "async", "< 2.24"
      end
    end
  end
end
