# frozen_string_literal: true

module Ractorbench
  module Plan
    # One measured run: which workload, under which model, at what size, on
    # which Ruby, and which repetition. Its id is what --resume matches on.
    RunSpec = Struct.new(:workload, :model, :workers, :messages, :params, :ruby, :rep, keyword_init: true) do
      def self.from_h(hash)
        new(**hash.slice(*members.map(&:to_s)).transform_keys(&:to_sym))
      end

      def id
        "#{config_label}/rep#{rep}"
      end

      # Everything but the repetition: runs with equal labels are samples of
      # one configuration.
      def config_label
        [workload, model, "w#{workers}", "m#{messages}", params_label, ruby].compact.join("/")
      end

      def params_label
        return nil if params.nil? || params.empty?

        params.sort.map { |k, v| "#{k}=#{v}" }.join(",")
      end

      def to_h
        super.transform_keys(&:to_s)
      end
    end
  end
end
