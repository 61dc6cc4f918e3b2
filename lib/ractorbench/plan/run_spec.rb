# frozen_string_literal: true

require_relative "configuration"

module Ractorbench
  module Plan
    # One measured run: which workload, under which model, at what size, on
    # which Ruby, and which repetition. Its id is what --resume matches on.
    RunSpec = Struct.new(:workload, :model, :workers, :messages, :params, :ruby, :rep, keyword_init: true) do
      def self.from_h(hash)
        new(**hash.slice(*members.map(&:to_s)).transform_keys(&:to_sym))
      end

      def id = configuration.run_id(rep)

      # Everything but the repetition: runs of one configuration are its samples.
      def configuration
        Configuration.new(workload: workload, model: model, workers: workers, messages: messages, params: params || {}, ruby: ruby)
      end

      def to_h
        super.transform_keys(&:to_s)
      end
    end
  end
end
