# frozen_string_literal: true

require_relative "launcher"
require_relative "outcome"
require_relative "../rubies/interpreter_settings"

require_relative "../paths"

module Ractorbench
  module Measure
    # Runs one RunSpec in a fresh child process of the Ruby under test
    # (through the Launcher) and turns whatever happened into a record: the
    # child's own measurements plus what only the parent can see
    # (whole-process time, CPU of the run's whole process tree, how it
    # ended). Runs must not overlap: CPU time is read as the change in this
    # process's reaped-children total.
    class Measure::Runner
      CHILD = File.join(HARNESS_DIR, "child.rb")

      def initialize(catalog:, timeout:)
        @catalog = catalog
        @timeout = timeout
      end

      def call(spec, target)
        settings = Rubies::InterpreterSettings.new(target)
        if (reason = settings.unsupported_reason)
          return {"status" => "unsupported", "reason" => "not supported on this Ruby: #{reason}", "settings" => settings.to_h}
        end

        child_spec = spec.to_h.merge("files" => @catalog.files_for(spec.workload, spec.model))
        launched = Launcher.new(target, CHILD, timeout: @timeout).call(child_spec)
        Measure::Outcome.new(launched, timeout: @timeout).to_h.merge(
          "user" => launched.user.round(6),
          "system" => launched.system.round(6),
          "settings" => settings.to_h
        )
      end
    end
  end
end
