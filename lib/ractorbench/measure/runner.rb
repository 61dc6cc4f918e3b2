# frozen_string_literal: true

require_relative "launcher"
require_relative "outcome"

require_relative "../base/paths"

module Ractorbench
  module Measure
    # Runs one RunSpec in a fresh child process of the Ruby under test
    # (through the Launcher) and turns whatever happened into a record: the
    # child's own measurements plus what only the parent can see
    # (whole-process time, CPU of the run's whole process tree, how it
    # ended). Runs must not overlap: CPU time is read as the change in this
    # process's reaped-children total.
    class Measure::Runner
      def initialize(catalog:, timeout:)
        @catalog = catalog
        @timeout = timeout
      end

      def call(spec, target)
        settings = target.interpreter_settings
        if (reason = settings.unsupported_reason)
          return driver("status" => "unsupported", "reason" => "not supported on this Ruby: #{reason}", "settings" => settings.to_h)
        end

        programs = target.programs
        launched = Launcher.new(target, programs.child, timeout: @timeout).call(child_spec(spec, programs))
        Measure::Outcome.new(launched, timeout: @timeout).record.merge!(
          "user" => launched.user.round(6),
          "system" => launched.system.round(6),
          "settings" => settings.to_h
        )
      end

      private

      def driver(fields) = Harness::Fields::Record.new(:driver, "the collector").merge!(fields)

      # A child that cannot load the workload's file (mruby's) gets its
      # default parameters with the spec: they are declared there only.
      def child_spec(spec, programs)
        child_spec = spec.to_h.merge("files" => @catalog.files_for(spec.workload, spec.model))
        return child_spec if programs.loads_harness?

        defaults = @catalog.workload(spec.workload).implementation.default_params.transform_keys(&:to_s)
        child_spec.merge("params" => defaults.merge(spec.params || {}))
      end
    end
  end
end
