# frozen_string_literal: true

module Ractorbench
  module Harness
    # The contract of an ops-per-second subject: one operation whose cost is
    # measured in batches, as the Concurrently seed did with
    # `batch.each { test_proc.call }`. A subject module extends Subject and
    # defines:
    #
    #   prepare          build the operation (not timed); reset its count
    #   run(batch)       one batch: the operation once per batch element
    #   batch(size)      the batch's elements (default nils; pipes for IO waits)
    #   within { }       where the loop runs (default here; a reactor task for async)
    #   settle(expected) let scheduled operations finish before the count is read
    #   unsupported_reason  nil, or why this Ruby cannot run it
    #   gc_off_problem   nil, or why GC must stay on while it runs
    #
    # Every subject counts the operations that really ran (`counted { n }`),
    # so a run proves it executed exactly what the harness timed.
    module Subject
      DIR = File.expand_path("../../subjects", __dir__)

      @registry = {}

      class << self
        attr_reader :registry

        # A subject by name: registered already (a --load plugin) or found
        # under harness/subjects/ by its file name ("conproc-call" is
        # conproc_call.rb), so a child loads only the one it measures.
        def find(name)
          path = File.join(DIR, "#{name.to_s.tr("-", "_")}.rb")
          require path if !registry.key?(name) && File.file?(path)
          registry[name]
        end

        def load_all
          Dir[File.join(DIR, "*.rb")].sort.each { |f| require f }
          registry
        end
      end

      attr_reader :name, :seed, :ran, :model, :file

      # seed: the seed's name for the call style; ran: what ractorbench runs
      # for it; model: the concurrency model it exercises.
      def subject(name, seed:, ran:, model:)
        @name = name
        @seed = seed
        @ran = ran
        @model = model
        @file = caller_locations(1, 1).first.absolute_path
        Subject.registry[name] = self
      end

      def unsupported_reason = nil
      def gc_off_problem = nil
      def prepare = nil
      def batch(size) = Array.new(size)
      def within = yield
      def settle(_expected) = nil

      # How many times the operation ran since `prepare`.
      def count
        @counter ? @counter.call : 0
      end

      private

      def counted(&reader)
        @counter = reader
      end
    end
  end
end
