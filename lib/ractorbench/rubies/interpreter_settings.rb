# frozen_string_literal: true

module Ractorbench
  module Rubies
    # The interpreter settings a Ruby under test runs with (YJIT, the M:N
    # scheduler's RUBY_MN_THREADS and RUBY_MAX_CPU), read from what the target
    # was started with and what its probe saw. A setting ractorbench was asked
    # for (--yjit, --mn, --max-cpu) that the Ruby does not honour makes its
    # runs "not supported" rather than a number that silently measures
    # something else.
    class Rubies::InterpreterSettings
      # target: a RubyTarget or its to_h (as stored in a results header).
      def initialize(target)
        hash = target.respond_to?(:to_h) ? target.to_h : target
        @argv = Array(hash["argv"])
        @env = hash["env"] || {}
        @info = hash["info"] || {}
        @features = @info["features"] || {}
      end

      def to_h
        {"yjit" => yjit, "mn_threads" => mn_threads, "max_cpu" => max_cpu}.compact
      end

      # One phrase for a report: "YJIT on, M:N threads on (verified), RUBY_MAX_CPU=1".
      def label
        parts = ["YJIT #{yjit}"]
        parts << "M:N threads #{mn_threads}" if mn_threads
        parts << "RUBY_MAX_CPU=#{effective_env["RUBY_MAX_CPU"]} (#{max_cpu})" if max_cpu
        parts.join(", ")
      end

      def unsupported_reason
        [yjit_problem, mn_threads_problem, max_cpu_problem].compact.first
      end

      def yjit
        @features["yjit_enabled"] ? "on" : "off"
      end

      # nil when not asked for; else "on (verified)", "not in effect" or "unverified".
      def mn_threads
        return nil unless effective_env["RUBY_MN_THREADS"]

        state(mn_check("threads"))
      end

      def max_cpu
        return nil unless effective_env["RUBY_MAX_CPU"]

        state(mn_check("ractors"))
      end

      private

      def effective_env
        @info["ruby_env"] || @env
      end

      def state(check)
        case check&.fetch("active", nil)
        when true then "on (verified)"
        when false then "not in effect"
        else "unverified"
        end
      end

      def mn_check(kind)
        (@features["mn"] || {})[kind]
      end

      def yjit_requested?
        @argv.any? { |a| a.start_with?("--yjit") } || @env["RUBY_YJIT_ENABLE"] == "1"
      end

      def yjit_problem
        return nil unless yjit_requested? && !@features["yjit_enabled"]

        why = @features["yjit"] ? "RubyVM::YJIT.enabled? is false" : "this Ruby was built without YJIT"
        "YJIT was asked for (#{(@argv & ["--yjit"]).first || "RUBY_YJIT_ENABLE=1"}) but is not on: #{why}"
      end

      def mn_threads_problem
        check = mn_check("threads")
        return nil unless @env["RUBY_MN_THREADS"] && check && check["active"] == false

        "the M:N scheduler was asked for (RUBY_MN_THREADS=#{@env["RUBY_MN_THREADS"]}) but is not in effect: " \
          "#{check["units"]} waiting threads held #{check["native_threads"]} native threads (1:1); " \
          "RUBY_MN_THREADS has no effect before Ruby 3.3"
      end

      def max_cpu_problem
        check = mn_check("ractors")
        return nil unless @env["RUBY_MAX_CPU"] && check && check["active"] == false

        "RUBY_MAX_CPU=#{@env["RUBY_MAX_CPU"]} was asked for but ractors do not share native threads on this Ruby: " \
          "#{check["units"]} waiting ractors held #{check["native_threads"]} native threads (1:1); " \
          "RUBY_MAX_CPU has no effect before Ruby 3.3"
      end
    end
  end
end
