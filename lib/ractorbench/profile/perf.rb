# frozen_string_literal: true

require "tmpdir"
require_relative "command"
require_relative "../measure/child_environment"
require_relative "perf_script"
require_relative "../rubies/interpreter_settings"

module Ractorbench
  module Profile
    # Linux perf: samples the CPU of every thread of the run's whole process
    # tree (each ractor, each forked worker) and names the interpreter's C
    # functions, the kernel's, and, through the JIT's perf map
    # (--yjit-perf, --zjit-perf), the compiled Ruby methods.
    module Perf
      # Samples a second per busy thread: enough to tell categories apart in
      # a run of a tenth of a second, little enough to leave the run alone.
      FREQUENCY = 1999
      CHECK_TIMEOUT = 30.0
      # How a JIT that is on is asked to write its perf map, by the probe's
      # feature that says it is on.
      JIT_MAPS = {"yjit" => "--yjit-perf", "zjit" => "--zjit-perf"}.freeze
      SCHED_SWITCH = "sched:sched_switch"
      # perf record's own options: quiet, and without the side-band thread
      # that watches BPF programs come and go (it holds every recording
      # open a second after the run has ended).
      RECORD = %w[record -q --no-bpf-event].freeze

      module_function

      # The perf to run: RACTORBENCH_PERF (a perf_VERSION, say), else perf on PATH.
      def binary = ENV.fetch("RACTORBENCH_PERF", "perf")

      # nil when perf can record here (a real recording of `true`, with the
      # control FIFO a profiled run uses), else one line: what is missing and
      # how to get it.
      def problem
        Dir.mktmpdir("ractorbench-perf-check") do |dir|
          control = fifos(dir)
          result = Command.run([binary, *RECORD, "-D", "-1", "--control", control, "-o", File.join(dir, "check.data"),
            "--", "true"], timeout: CHECK_TIMEOUT)
          result.ok ? nil : explain(said(result))
        end
      end

      # What perf said went wrong: the line after its "Error:", else its first.
      def said(result)
        lines = result.errors.to_s.lines.map(&:strip).reject(&:empty?)
        after = lines.index("Error:")
        (after && lines[after + 1]) || result.reason
      end

      def explain(reason)
        paranoid = begin
          File.read("/proc/sys/kernel/perf_event_paranoid").strip
        rescue SystemCallError
          nil
        end
        if reason.match?(/No such file or directory|not found|not installed/i)
          "perf cannot run (#{reason}): install it (Debian: apt-get install linux-perf; Ubuntu: " \
            "apt-get install linux-tools-$(uname -r)), or set RACTORBENCH_PERF to a perf that runs"
        elsif reason.match?(/permission|not permitted|access to performance monitoring|paranoid/i)
          "perf may not record here (#{reason}): run as root, or give perf CAP_PERFMON, or set kernel.perf_event_paranoid " \
            "to 2 or less#{" (it is #{paranoid})" if paranoid}; in a container, its seccomp profile must allow perf_event_open"
        else
          "perf cannot record here (#{reason})"
        end
      end

      # Runs one profiled run under perf record; gives [launched, [summary,
      # nil]] or [launched, [nil, why not]]. The block starts the child,
      # given the target to start (the Ruby under test behind perf record)
      # and the spec's "profile" entry, and returns the Launcher's result.
      # capacity: the cores the run could use (IdleCores).
      def record(target, timeout:, capacity:)
        Dir.mktmpdir("ractorbench-profile") do |dir|
          data = File.join(dir, "perf.data")
          argv = [binary, *RECORD, *events, "-g", "--switch-events", "-D", "-1", "--control", fifos(dir), "-o", data, "--"]
          control, ack = File.join(dir, "control"), File.join(dir, "ack")
          launched = yield(Wrapped.new(argv + target.argv + jit_maps(target), target.env), {"tool" => "perf", "control" => control, "ack" => ack})
          [launched, read(data, target, timeout: timeout, capacity: capacity)]
        end
      end

      # [summary, nil] or [nil, why not].
      def read(data, target, timeout:, capacity:)
        return [nil, "perf wrote no profile"] unless File.size?(data)

        script = File.join(File.dirname(data), "script.txt")
        result = Command.run([binary, "script", "-i", data, "--show-switch-events", "-F", "pid,tid,time,event,period,ip,sym,dso,trace"], timeout: timeout, stdout: script)
        return [nil, "perf script failed: #{result.reason}"] unless result.ok

        executable = target.probe.executable
        interpreter = ->(dso) { dso == executable || File.basename(dso).match?(/\Alibruby|\Aruby\z/) }
        summary = File.open(script) { |io| PerfScript.summary(io, interpreter: interpreter, capacity: capacity) }
        summary.pids.each { |pid| File.delete("/tmp/perf-#{pid}.map") if File.file?("/tmp/perf-#{pid}.map") }
        [summary, nil]
      end

      # CPU samples, and, where perf may read the scheduler's tracepoint
      # (root, or a tracefs open to the user), why each thread left its core.
      def events
        cpu = ["-e", "cpu-clock/freq=#{FREQUENCY}/"]
        tracepoint? ? cpu + ["-e", SCHED_SWITCH] : cpu
      end

      def tracepoint?
        return @tracepoint unless @tracepoint.nil?

        @tracepoint = Dir.mktmpdir("ractorbench-perf-check") do |dir|
          Command.run([binary, *RECORD, "-e", SCHED_SWITCH, "-o", File.join(dir, "check.data"), "--", "true"],
            timeout: CHECK_TIMEOUT).ok
        end
      end

      # The JIT's perf map, for a JIT this run has on, so that perf names
      # compiled methods instead of counting them as unnamed code.
      def jit_maps(target)
        features = target.probe.features
        JIT_MAPS.filter_map { |jit, flag| flag if features.enabled?(jit) && accepts?(target, flag) }
      end

      # Whether this Ruby takes the flag (a Ruby before 3.3 refuses
      # --yjit-perf): tried once per Ruby, as the probe tries features, in
      # the environment a measured run gets (under `bundle exec`, another
      # Ruby given this process's bundler/setup fails to start).
      def accepts?(target, flag)
        (@accepts ||= {})[[target.argv, target.env, flag]] ||=
          Command.run([*target.argv, flag, "-e", "0"], timeout: CHECK_TIMEOUT, env: Measure::ChildEnvironment.for(target), only: true).ok
      end

      def fifos(dir)
        control, ack = File.join(dir, "control"), File.join(dir, "ack")
        File.mkfifo(control)
        File.mkfifo(ack)
        "fifo:#{control},#{ack}"
      end

      # The Ruby under test, started by perf record: what the Launcher needs
      # of a target.
      Wrapped = Struct.new(:argv, :env)
    end
  end
end
