# frozen_string_literal: true

require "json"
require "open3"
require "rbconfig"
require "shellwords"

require_relative "../paths"
require_relative "../errors"
require_relative "../measure/child_environment"

module Ractorbench
  module Rubies
    # One Ruby under test: a name, the command that starts it (with its flags)
    # and extra environment, plus what a probe run found out about it.
    class Target
      PROBE = File.join(HARNESS_DIR, "probe.rb")
      SCALING_PROBE = File.join(HARNESS_DIR, "scaling_probe.rb")

      attr_reader :name, :argv, :env, :info

      # "yjit=ruby --yjit" or plain "ruby --yjit" (named after the command).
      def self.parse(text)
        name, command = text.include?("=") ? text.split("=", 2) : [nil, text]
        argv = Shellwords.split(command.to_s)
        raise UsageError, "--ruby #{text.inspect}: give NAME=COMMAND, e.g. --ruby yjit='ruby --yjit'" if argv.empty?

        name = (name.nil? || name.strip.empty?) ? argv.join(" ") : name.strip
        new(name: name, argv: argv)
      rescue ArgumentError => e
        raise UsageError, "--ruby #{text.inspect}: #{e.message}"
      end

      def self.current
        new(name: "ruby", argv: [RbConfig.ruby])
      end

      def self.from_h(hash)
        new(name: hash.fetch("name"), argv: hash.fetch("argv"), env: hash.fetch("env", {}), info: hash["info"])
      end

      def initialize(name:, argv:, env: {}, info: nil)
        @name = name
        @argv = argv
        @env = env
        @info = info
      end

      # A copy of this Ruby with more flags and environment (YJIT, M:N, ...).
      def variant(suffix, flags: [], env: {})
        self.class.new(name: "#{name}#{suffix}", argv: argv + flags, env: @env.merge(env))
      end

      def probe!
        out, err, status = Open3.capture3(Measure::ChildEnvironment.for(self), *argv, PROBE, unsetenv_others: true)
        @info = parse_probe(out)
        raise UsageError, "--ruby #{name}: #{argv.join(" ")} is not a Ruby (#{first_line(err, status)})" unless @info && status.success?

        @info["ruby_env"] = ruby_environment
        self
      rescue Errno::ENOENT, Errno::EACCES
        raise UsageError, "--ruby #{name}: command #{argv.first.inspect} not found; give the path to a ruby executable"
      end

      # Runs the ractor-scaling probe (1 ractor, then `workers` at once, CPU
      # per iteration) once and keeps its figures in info, so the header
      # records them. A probe that fails leaves its reason; the collection
      # goes on either way.
      def scaling_probe!(workers)
        out, err, status = Open3.capture3(Measure::ChildEnvironment.for(self), *argv, SCALING_PROBE, workers.to_s, unsetenv_others: true)
        data = status.success? ? JSON.parse(out.lines.last.to_s) : nil
        @info["ractor_scaling"] = data&.fetch("ractor_scaling", nil) ||
          {"reason" => data&.fetch("reason", nil) || "the probe failed: #{first_line(err, status)}"}
        self
      rescue JSON::ParserError, SystemCallError => e
        @info["ractor_scaling"] = {"reason" => "the probe failed: #{e.message}"}
        self
      end

      def to_h
        {"name" => name, "argv" => argv, "env" => env, "info" => info}
      end

      private

      def parse_probe(out)
        data = JSON.parse(out.lines.last.to_s)
        data if data.is_a?(Hash) && data["ractorbench_probe"]
      rescue JSON::ParserError
        nil
      end

      def first_line(err, status)
        line = err.to_s.lines.first&.strip
        (line.nil? || line.empty?) ? "exit status #{status.exitstatus.inspect}" : line
      end

      # RUBY_* variables change what is measured (GC tuning, M:N, YJIT), so
      # every run records the ones in force.
      def ruby_environment
        Measure::ChildEnvironment.for(self).select { |k, v| k.start_with?("RUBY") && v }
      end
    end
  end
end
