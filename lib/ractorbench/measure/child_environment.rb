# frozen_string_literal: true

module Ractorbench
  module Measure
    # The environment a measured child starts with: the user's, minus anything
    # Bundler injected into this process (a Ruby under test loads its own gems,
    # and bundler/setup would add its start-up cost to every run), plus the
    # Ruby target's own settings.
    module Measure::ChildEnvironment
      module_function

      def for(target)
        base.merge(target.env)
      end

      def base
        @base ||= begin
          env = (defined?(Bundler) && Bundler.respond_to?(:unbundled_env)) ? Bundler.unbundled_env : ENV.to_h
          env.reject { |k, _| k.start_with?("RACTORBENCH_") }.freeze
        end
      end
    end
  end
end
