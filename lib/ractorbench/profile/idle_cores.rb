# frozen_string_literal: true

module Ractorbench
  module Profile
    # The cores a run could use that ran nothing of it, and why. A CPU
    # profile shows only what ran; a run on W workers had min(W, usable
    # cores) cores for its timed work (as Analysis::Gap counts them), and
    # whatever part of them no sample covers sat idle. Core time = CPU +
    # idle: serial's one core on the work against what the model's cores
    # did, so that the difference is the gap to the ideal in seconds.
    #
    # Idle time is cut into short slices, and in each it is charged, in
    # this order:
    #   others  while a thread of the run was ready but preempted (perf's
    #           context switch records), other programs had the cores;
    #   gc      while a thread collected garbage, the other cores' time up
    #           to (cores - 1) times the GC time (through Ruby 4.0 every
    #           ractor stops while one collects; under the GVL no thread
    #           runs while it does);
    #   the rest by why the run's threads were blocked in that slice (a
    #           lock, a condition variable, a pipe: the function they went
    #           to sleep in, from the sched_switch tracepoint where perf may
    #           read it), the run's first thread left out, since its
    #           waiting (a coordinator's, a join) is not what idles a core;
    #           "waiting" where no reason is known.
    class IdleCores
      SLICE = 0.002
      GC = "gc"
      WAITING = "waiting"
      OTHERS = "others"

      # capacity: the cores the run could use.
      def initialize(capacity)
        @capacity = capacity
        @busy = Hash.new(0.0)
        # The run's threads' time on the cores, from the switch records:
        # exact where samples are a count with noise of its own (see idle).
        @running = Hash.new(0.0)
        @switches = false
        @collecting = Hash.new(0.0)
        @preempted = Hash.new(0.0)
        @blocked = Hash.new { |h, k| h[k] = Hash.new(0.0) }
        @first = nil
        @last = nil
      end

      # A sample of seconds of CPU ending at time (perf's, in seconds).
      def add(time, seconds, category)
        cover(time - seconds, time)
        slice = (time / SLICE).floor
        @busy[slice] += seconds
        @collecting[slice] += seconds if category == GC
      end

      # A thread of the run was on a core from from to to (switch records).
      def ran(from, to)
        @switches = true
        cover(from, to)
        spread(from, to) { |slice, seconds| @running[slice] += seconds }
      end

      # A thread of the run was ready to run but preempted.
      def preempted(from, to) = spread(from, to) { |slice, seconds| @preempted[slice] += seconds }

      # A thread of the run was blocked, for a reason (a category).
      def blocked(from, to, category) = spread(from, to) { |slice, seconds| @blocked[slice][category] += seconds }

      # {category => idle seconds charged to it}.
      def idle
        totals = Hash.new(0.0)
        return totals if @first.nil?

        ((@first / SLICE).floor..(@last / SLICE).floor).each do |slice|
          free = [@capacity * slice_length(slice) - used(slice), 0.0].max
          others = [free, @preempted[slice]].min
          gc = [free - others, @collecting[slice] * (@capacity - 1)].min
          totals[OTHERS] += others
          totals[GC] += gc
          charge(totals, free - others - gc, @blocked.fetch(slice, {}))
        end
        totals
      end

      private

      # The profile's span reaches from..to.
      def cover(from, to)
        @first = from if @first.nil? || from < @first
        @last = to if @last.nil? || to > @last
      end

      # How much of a slice's cores the run's threads used. Samples come a
      # period apart, so a slice's count of them is off by a sample either
      # way; a slice whose cores the run's own threads filled (more workers
      # than cores) would then show some free time now and then, and its
      # preempted threads charge it to other programs that were never there.
      # The switch records say to the microsecond when each thread was on a
      # core; samples are the measure only where perf recorded no switches.
      def used(slice) = @switches ? @running[slice] : @busy[slice]

      # What is left, by the reasons the threads were blocked, in proportion.
      def charge(totals, rest, reasons)
        blocked = reasons.values.sum
        return totals[WAITING] += rest unless blocked.positive?

        reasons.each { |category, seconds| totals[category] += rest * seconds / blocked }
      end

      def spread(from, to)
        slice = (from / SLICE).floor
        while from < to
          ends = [(slice + 1) * SLICE, to].min
          yield slice, ends - from
          from = ends
          slice += 1
        end
      end

      # The first and last slices are only partly inside the profile.
      def slice_length(slice)
        from = [slice * SLICE, @first].max
        to = [(slice + 1) * SLICE, @last].min
        [to - from, 0.0].max
      end
    end
  end
end
