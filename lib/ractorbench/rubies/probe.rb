# frozen_string_literal: true

require_relative "../base/json_object"

module Ractorbench
  module Rubies
    # What a Ruby's probe answered (harness/probe.rb, harness/mruby/probe.rb;
    # the ractor-scaling probe's figures and the RUBY_* variables in force
    # added by Target), read by method: a Target's info, and each Ruby of a
    # results header.
    class Probe < JsonObject
      # The M:N scheduler's check of one kind of unit (threads or ractors):
      # whether it took effect, and the native threads its units held.
      class MNCheck < JsonObject
        members :active, :units, :native_threads
      end

      # What this Ruby has and has turned on.
      class Features < JsonObject
        members :ractor, :ractor_port, :ractor_value, :fork, :yjit, :rjit, :yjit_enabled, :zjit, :zjit_enabled,
          :jit_enabled, :gc_time, :mn

        # An M:N check by its name in the probe ("threads", "ractors").
        def mn_check(name) = MNCheck.new(mn.is_a?(Hash) ? mn[name] : nil)

        # A feature by its probe key, where a table names it (a JIT's key,
        # mruby's optional parts).
        def has?(key) = @json[key] ? true : false

        # A JIT by its key ("yjit"): on in this process.
        def enabled?(jit) = has?("#{jit}_enabled")
      end

      # The ractor-scaling probe: CPU per iteration of one ractor and of
      # `workers` at once, or why it could not tell (reason).
      class Scaling < JsonObject
        members :workers, :iterations, :cpu_ns_per_iteration_1, :cpu_ns_per_iteration_w, :cpu_ratio, :wall_speedup,
          :rounds, :reason

        # Figures to judge by (a failed probe has only its reason).
        def measured? = cpu_ratio.is_a?(Numeric)
      end

      members :description, :version, :engine, :platform, :executable, :ruby_env
      member :features, Features
      member :ractor_scaling, Scaling
    end
  end
end
