# frozen_string_literal: true

require "rbconfig"
require_relative "../prepared_run"
require_relative "refusal"

module Ractorbench
  module Harness
    module RubyBench
      # ruby-bench's use_gemfile: the benchmark's Gemfile (the current folder,
      # which the benchmark has just changed to) set up with Bundler. ruby-bench
      # also installs what is missing first; a measured run never does (no
      # network, nothing written): a gem this Ruby lacks makes the benchmark
      # "not supported" here, with the command that installs it.
      module Gems
        module_function

        def setup(extra_setup_cmd = nil)
          raise Unsupported, "needs a setup command ractorbench does not run (#{extra_setup_cmd})" if extra_setup_cmd

          require "bundler"
          begin
            Bundler.setup
          rescue Bundler::BundlerError => e
            Refusal.raise!("needs gems this Ruby lacks (#{e.message.lines.first.to_s.strip}); install them with this " \
              "Ruby: cd #{Dir.pwd} && #{RbConfig.ruby} -S bundle install", nil)
          end
        end
      end
    end
  end
end
