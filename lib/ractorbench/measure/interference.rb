# frozen_string_literal: true

require "etc"

module Ractorbench
  module Measure
    # What the rest of the machine did while one run ran: CPU time used by
    # other processes (the whole machine's busy time from /proc/stat, minus
    # the run's own process tree and this driver) and time the hypervisor
    # stole. A load average lags by minutes and cannot say which run a burst
    # fell on; this can. Linux only: elsewhere every figure is nil.
    class Interference
      STAT = "/proc/stat"
      # A run is disturbed when others kept more than a quarter of a core
      # busy on average, or the hypervisor stole a tenth of its wall time.
      # Below MIN_SECONDS a difference is within /proc/stat's tick.
      OTHERS_SHARE = 0.25
      STEAL_SHARE = 0.10
      MIN_SECONDS = 0.05

      Sample = Struct.new(:busy, :steal, :own, :at)

      def self.available? = File.readable?(STAT)

      def initialize(stat: STAT)
        @stat = stat
        @tick = Etc.sysconf(Etc::SC_CLK_TCK).to_f
      rescue NotImplementedError, ArgumentError
        @tick = 100.0
      end

      def sample
        fields = File.foreach(@stat).first.split.drop(1).map(&:to_i)
        user, nice, system, _idle, _iowait, irq, softirq, steal = fields
        times = Process.times
        Sample.new((user + nice + system + irq.to_i + softirq.to_i) / @tick, steal.to_i / @tick,
          times.utime + times.stime + times.cutime + times.cstime, now)
      rescue SystemCallError, NoMethodError
        nil
      end

      # Fields for a run record, from samples taken before and after it; the
      # run's own tree is in `own` (reaped children's CPU), so is this driver.
      def record(before, after)
        return {} unless before && after

        wall = after.at - before.at
        others = [(after.busy - before.busy) - (after.own - before.own), 0.0].max
        steal = after.steal - before.steal
        {"others_cpu" => others.round(3), "steal" => steal.round(3), "disturbed" => disturbed?(others, steal, wall)}
      end

      def disturbed?(others, steal, wall)
        return false unless wall.positive?

        (others > MIN_SECONDS && others / wall > OTHERS_SHARE) || (steal > MIN_SECONDS && steal / wall > STEAL_SHARE)
      end

      # Others' cores busy on average between two samples.
      def others_cores(before, after)
        wall = after.at - before.at
        return 0.0 unless wall.positive?

        [(after.busy - before.busy) - (after.own - before.own), 0.0].max / wall
      end

      private

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
