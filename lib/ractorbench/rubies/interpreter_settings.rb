# frozen_string_literal: true

require_relative "settings"

module Ractorbench
  module Rubies
    # The interpreter settings a Ruby under test runs with (Settings::ALL:
    # YJIT, ZJIT, the M:N scheduler's RUBY_MN_THREADS and RUBY_MAX_CPU), read
    # from what the target was started with and what its probe saw. A setting
    # ractorbench was asked for that the Ruby does not honour makes its runs
    # "not supported" rather than a number that silently measures something
    # else.
    class InterpreterSettings
      # target: a Rubies::Target, or a Ruby of a results header
      # (Store::Header::Ruby): its command, environment and probe.
      def initialize(target)
        @argv = Array(target.argv)
        @env = target.env || {}
        @probe = target.probe
        @features = @probe.features
      end

      # {"yjit" => "on", "mn_threads" => "on (verified)", ...}: what a run records.
      def to_h
        Settings::ALL.to_h { |s| [s.key, s.state(@features, @argv, effective_env)] }.compact
      end

      # One phrase for a report: "YJIT on, M:N threads on (verified), RUBY_MAX_CPU=1 (...)".
      def label
        Settings::ALL.filter_map do |s|
          state = s.state(@features, @argv, effective_env)
          s.label(state, effective_env) if state
        end.join(", ")
      end

      def unsupported_reason
        Settings::ALL.lazy.filter_map { |s| s.problem(@features, @argv, @env) }.first
      end

      private

      # What the probe saw in force (the target's own variables and those
      # it inherited), else what the target asked for.
      def effective_env
        @probe.ruby_env || @env
      end
    end
  end
end
