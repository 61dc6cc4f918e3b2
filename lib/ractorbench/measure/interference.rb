# frozen_string_literal: true

require "etc"

module Ractorbench
  module Measure
    # What the rest of the machine did while one run ran: the CPU time all
    # processes used (from /proc/stat, before and after) minus the run's own
    # process tree and this driver, and the time a hypervisor gave to other
    # guests (steal). A run during which others kept more than a quarter of a
    # core busy is disturbed: its figures stay in the file, and the report
    # says so. nil figures where /proc/stat is missing.
    module Measure::Interference
      STAT = "/proc/stat"
      # Other programs' CPU, in cores, above which a run is disturbed.
      DISTURBED_CORES = 0.25
      # Below this, a machine counts as quiet for --wait-quiet.
      QUIET_CORES = 0.15
      # --wait-quiet without a number: seconds to wait at most before each run.
      DEFAULT_WAIT = 30.0

      Snapshot = Struct.new(:busy, :steal, :own, :at)

      module_function

      # busy and steal in seconds of all CPUs together; own: this driver's CPU.
      def snapshot
        fields = File.foreach(STAT).first.split.drop(1).map { |f| Integer(f) }
        user, nice, system, _idle, _iowait, irq, softirq, steal = fields
        times = Process.times
        Snapshot.new((user + nice + system + irq.to_i + softirq.to_i) / hz, steal.to_i / hz, times.utime + times.stime, now)
      rescue SystemCallError, ArgumentError, TypeError, NoMethodError
        nil
      end

      # The record's fields for a run between two snapshots; run_cpu: the
      # CPU seconds of the run's own process tree.
      def between(before, after, run_cpu)
        return {} unless before && after

        wall = after.at - before.at
        others = [after.busy - before.busy - run_cpu - (after.own - before.own), 0.0].max
        steal = after.steal - before.steal
        {
          "others_cpu" => others.round(3),
          "steal" => steal.round(3),
          "disturbed" => wall.positive? && (others + steal) > DISTURBED_CORES * wall + slack
        }
      end

      # /proc/stat counts in ticks per CPU: two readings can be off by one
      # tick on each CPU.
      def slack = Etc.nprocessors / hz

      def hz
        @hz ||= (Etc.respond_to?(:sysconf) && Etc.const_defined?(:SC_CLK_TCK)) ? Etc.sysconf(Etc::SC_CLK_TCK).to_f : 100.0
      end

      # Waits until other programs have used under QUIET_CORES for `moment`
      # seconds in a row, at most `limit` seconds; returns [seconds waited,
      # quiet reached?]. Nothing of ours runs while it waits.
      def wait_quiet(limit, moment: 0.5, step: 0.25)
        started = now
        quiet_since = nil
        previous = snapshot
        return [0.0, false] unless previous

        loop do
          sleep(step)
          current = snapshot
          others = current.busy - previous.busy - (current.own - previous.own)
          quiet = others <= QUIET_CORES * (current.at - previous.at) + slack
          quiet_since = quiet ? (quiet_since || previous.at) : nil
          previous = current
          return [now - started, true] if quiet_since && current.at - quiet_since >= moment
          return [now - started, false] if now - started >= limit
        end
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
