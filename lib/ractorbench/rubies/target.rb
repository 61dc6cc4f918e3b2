# frozen_string_literal: true

require "rbconfig"
require "shellwords"

require_relative "../base/paths"
require_relative "../base/errors"
require_relative "../base/printable"
require_relative "../measure/child_environment"
require_relative "../measure/launcher"
require_relative "child_programs"
require_relative "interpreter_settings"
require_relative "probe"

module Ractorbench
  module Rubies
    # One Ruby under test: a name, the command that starts it (with its flags)
    # and extra environment, plus what a probe run found out about it.
    class Target
      SCALING_PROBE = File.join(HARNESS_DIR, "scaling_probe.rb")
      # A Ruby that has not answered in this long is not going to.
      PROBE_TIMEOUT = 60.0
      # What Ruby itself reads at start-up, before any program of ours:
      # a file it loads may end the process or break it.
      STARTUP = %w[RUBYOPT RUBYLIB].freeze

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

      # Learns what this Ruby is, in a child started as every run is; a
      # command that is not a Ruby (hangs, crashes, sends garbage) is a
      # UsageError naming what happened. A Ruby that cannot run CRuby's probe
      # is asked the next engine's (ChildPrograms: mruby has no require); the
      # first failure is the one reported, and one that hung is not asked again.
      def probe!(timeout: PROBE_TIMEOUT)
        timeout = [timeout, PROBE_TIMEOUT].min
        first = nil
        ChildPrograms::ALL.each do |programs|
          launched = Measure::Launcher.new(self, programs.probe, timeout: timeout).call(nil)
          first ||= launched
          record = launched.record unless launched.channel_problem
          if record&.key?("ractorbench_probe") && !launched.timed_out && launched.status.success? && programs.engine?(record)
            @info = record
            break
          end
          break if launched.timed_out
        end
        raise UsageError, "--ruby #{name}: #{argv.join(" ")} #{startup_blamed(first, timeout) || why_not(first, timeout)}" unless @info

        @info["ruby_env"] = ruby_environment
        self
      rescue Errno::ENOENT, Errno::EACCES, Errno::ENOEXEC, Errno::ENOTDIR
        raise UsageError, "--ruby #{name}: command #{argv.first.inspect} not found; give the path to a ruby executable"
      end

      # What its probe answered, read by method (info is that answer's JSON,
      # as the header records it).
      def probe = Probe.new(info)

      # The programs this Ruby runs (CRuby's harness, or mruby's), by the
      # engine its probe reported.
      def programs = ChildPrograms.for(info)

      # The interpreter settings this Ruby runs with (YJIT, M:N, ...): what
      # a run records, and why one is not supported here.
      def interpreter_settings = InterpreterSettings.new(self)

      # Runs the ractor-scaling probe (1 ractor, then `workers` at once, CPU
      # per iteration) once and keeps its figures in info, so the header
      # records them. A probe that fails leaves its reason; the collection
      # goes on either way.
      def scaling_probe!(workers)
        launched = Measure::Launcher.new(self, SCALING_PROBE, timeout: PROBE_TIMEOUT).call({"workers" => workers})
        data = (launched.record if !launched.channel_problem && !launched.timed_out && launched.status.success?)
        @info["ractor_scaling"] = data&.fetch("ractor_scaling", nil) ||
          {"reason" => data&.fetch("reason", nil) || "the probe failed: #{why_not(launched, PROBE_TIMEOUT)}"}
        self
      rescue SystemCallError => e
        @info["ractor_scaling"] = {"reason" => "the probe failed: #{e.message}"}
        self
      end

      def to_h
        {"name" => name, "argv" => argv, "env" => env, "info" => info}
      end

      private

      # When the probe got no answer and the environment sets what Ruby
      # reads at start-up: asked again without it, an answer then says
      # those variables were the cause, not the Ruby.
      def startup_blamed(failed, timeout)
        environment = Measure::ChildEnvironment.for(self)
        given = STARTUP.select { |k| environment[k] }
        return nil if given.empty? || failed.timed_out

        # Each alone first, then together: the ones named are the ones that matter.
        set = [*given.zip, given].uniq.find { |unset| answers_without?(unset, timeout) }
        return nil unless set

        shown = set.map { |k| "#{k}=#{environment[k]}" }.join(" ")
        "ends before running anything when started with #{Printable.name(shown)} (#{ended(failed)}), " \
          "and answers without #{set.join(" and ")}: what #{set.join(" or ")} loads ends or breaks the program; fix " \
          "it, or unset #{set.join(" and ")} for ractorbench"
      end

      def answers_without?(unset, timeout)
        bare = self.class.new(name: name, argv: argv, env: @env.merge(unset.to_h { |k| [k, nil] }))
        launched = Measure::Launcher.new(bare, ChildPrograms::ALL.first.probe, timeout: timeout).call(nil)
        !launched.timed_out && launched.status.success? && launched.record&.key?("ractorbench_probe")
      end

      def ended(launched)
        status = launched.status
        return "killed by SIG#{Signal.signame(status.termsig)}" if status.signaled?

        line = launched.stderr.lines.find { |l| !l.strip.empty? }&.strip
        "exit status #{status.exitstatus}#{": #{Printable.name(raised(line))}" if line}"
      end

      # Ruby's "FILE:LINE:in `...': MESSAGE (CLASS)" said as one sentence.
      def raised(line)
        m = line.match(/\A(?<where>.+?:\d+):in [`'][^']*': (?<what>.*)\z/)
        m ? "#{m[:what]}, raised at #{m[:where]}" : line
      end

      def why_not(launched, timeout)
        status = launched.status
        return "did not answer within #{format("%g", timeout)}s (--timeout): is it a Ruby?" if launched.timed_out
        return "is not a Ruby (it was killed by SIG#{Signal.signame(status.termsig)})" if status.signaled?
        return "is not a Ruby (garbage on the result channel: #{launched.channel_problem})" if launched.channel_problem

        line = launched.stderr.lines.find { |l| !l.strip.empty? }&.strip
        "is not a Ruby (#{line || "exit status #{status.exitstatus.inspect}, no answer to the probe"})"
      end

      # RUBY_* variables change what is measured (GC tuning, M:N, YJIT), so
      # every run records the ones in force.
      def ruby_environment
        Measure::ChildEnvironment.for(self).select { |k, v| k.start_with?("RUBY") && v }
      end
    end
  end
end
