# frozen_string_literal: true

require_relative "categories"
require_relative "totals"
require_relative "idle_cores"

module Ractorbench
  module Profile
    # Reads `perf script --show-switch-events -F
    # pid,tid,time,event,period,ip,sym,dso,trace` of a recording made with
    # call chains (-g) into Totals. An event is a line "PID/TID TIME:
    # PERIOD EVENT: [fields]" then its frames, leaf first, one a line:
    # "ADDRESS SYMBOL (LIBRARY)", "[unknown]" for an address no symbol
    # covers. A cpu-clock sample's period is the CPU time it stands for
    # (nanoseconds); a sched:sched_switch event says why a thread left its
    # core (the function it went to sleep in); a "PERF_RECORD_SWITCH IN|OUT
    # [preempt]" line, when it left and came back.
    #
    # Kernel frames come with a trustworthy chain; of the user-space frames
    # only the first is (the interpreter is not built with frame pointers,
    # so perf's walk past it reads garbage), and it is what a sample is
    # counted under. The cores the run could use but left idle are added
    # (IdleCores), so that a profile holds the run's core time.
    class PerfScript
      HEAD = %r{\A\s*(\d+)/(\d+)\s+(\d+\.\d+):\s+(\d+)\s+(\S+):(?:\s+(.*?))?\s*\z}
      SWITCH = %r{\A\s*\d+/(\d+)\s+(\d+\.\d+):\s+PERF_RECORD_SWITCH\s+(IN|OUT)(\s+preempt)?}
      SCHED_SWITCH = "sched:sched_switch"
      KERNEL = "[kernel.kallsyms]"
      UNKNOWN = "[unknown]"
      # A sched_switch event and the switch record of the same moment.
      SAME_MOMENT = 0.001

      # The idle cores' pseudo-functions, by the category they are charged to.
      IDLE = Hash.new { |_, category| "(cores idle: #{Categories.label(category)})" }
        .merge("others" => "(cores taken by other programs)", "gc" => "(cores idle while GC ran)").freeze

      # interpreter: whether a library path is the Ruby under test (its
      # executable or libruby), for code with no symbol and for what is
      # the interpreter's own; capacity: the cores the run could use.
      def self.summary(io, interpreter:, capacity: 1)
        new(interpreter, capacity).read(io)
      end

      def initialize(interpreter, capacity)
        @interpreter = interpreter
        @summary = Totals.new
        @idle = IdleCores.new(capacity)
        @summary.capacity = capacity
        @off = {}
        @on = {}
        @start = nil
        @last_time = nil
        @frames = {}
        @chains = {}
        @reasons = {}
        @root = nil
      end

      # A run with many context switches gives perf script hundreds of
      # thousands of lines, most of them frames: each distinct frame line
      # (an address and its symbol) is cut apart once, and the frames past
      # the first user frame are not even looked at.
      def read(io)
        head = nil
        frames = []
        io.each_line do |line|
          if line.start_with?("\t")
            frames << (@frames[line] ||= frame(line)) if head && (frames.empty? || frames.last[1] == KERNEL)
          elsif line.include?("PERF_RECORD_SWITCH")
            switch = SWITCH.match(line) or next
            switched(switch[1], Float(switch[2]), switch[3] == "IN", !switch[4].nil?)
          elsif (found = HEAD.match(line))
            event(head, frames) if head
            head = found
            frames = []
          end
        end
        event(head, frames) if head
        # Threads still on a core when the recording stopped.
        @on.each_value { |since| @idle.ran(since, @last_time) if @last_time && since < @last_time }
        @idle.idle.each { |category, seconds| @summary.add_idle(category, IDLE[category], seconds) }
        @summary
      end

      private

      # "\t    7f13cf51ec50 gc_sweep_step (/opt/.../ruby)\n": [symbol, library].
      def frame(line)
        _, rest = line.split(" ", 2)
        symbol, open, library = rest.to_s.rpartition(" (")
        open.empty? ? [UNKNOWN, UNKNOWN] : [symbol.strip, library.chomp.chomp(")")].map(&:freeze).freeze
      end

      def event(head, frames)
        pid, tid, time = Integer(head[1]), head[2], Float(head[3])
        @root ||= pid
        @summary.pids << pid
        if head[5] == SCHED_SWITCH
          @reasons[tid] = [time, category(frames).first] unless head[6].to_s.match?(/prev_state=R\b/)
        else
          sample(time, Integer(head[4]) / 1e9, frames)
        end
      end

      # A thread left its core (preempted: ready to run on) or came back.
      # Between its coming back and its leaving, it ran: a thread whose
      # first record is a leaving had run since the recording began.
      def switched(tid, time, back, preempted)
        @start ||= time
        @last_time = time if @last_time.nil? || time > @last_time
        unless back
          since = @on.delete(tid) || (@off.key?(tid) ? nil : @start)
          @idle.ran(since, time) if since && since < time
          @off[tid] = [time, preempted]
          return
        end
        @on[tid] = time

        since, was_preempted = @off.delete(tid)
        return unless since

        if was_preempted
          @idle.preempted(since, time)
        elsif tid != @root.to_s
          at, reason = @reasons.delete(tid)
          @idle.blocked(since, time, (at && (at - since).abs <= SAME_MOMENT) ? reason : IdleCores::WAITING)
        end
      end

      def sample(time, seconds, frames)
        category, function, stack, user_symbol, user_dso, kernel, interpreter = category(frames)
        @summary.unnamed_in(library(user_dso)) if user_dso && user_symbol.nil? && kernel.empty?
        @summary.interpreter_sample(library(user_dso), named: !user_symbol.nil?) if interpreter && kernel.empty?
        @summary.add(category, function, seconds, stack: stack)
        @idle.add(time, seconds, category)
      end

      # The category of a chain of frames, and what it was named by: worked
      # out once for each chain (a sleeping thread's are few and repeat).
      def category(frames) = @chains[frames] ||= categorise(frames)

      def categorise(frames)
        kernel = frames.take_while { |_, dso| dso == KERNEL }.map(&:first)
        user_symbol, user_dso = frames[kernel.size]
        user_symbol = nil if user_symbol == UNKNOWN || user_symbol&.start_with?("0x")
        interpreter = user_dso && @interpreter.call(user_dso)
        category = Categories.native(kernel, user_dso && [user_symbol, user_dso], interpreter: interpreter)
        function = name(kernel, user_symbol, user_dso)
        stack = [user_symbol || function, *kernel.reverse.map { |f| "#{f} [k]" }].uniq
        [category, function, stack, user_symbol, user_dso, kernel, interpreter]
      end

      # The function a sample was in: the kernel's, marked, or the user
      # frame's, or the library it fell in when that has no symbol.
      def name(kernel, symbol, dso)
        return "#{kernel.first} [k]" unless kernel.empty?
        return symbol if symbol

        "(no symbol in #{library(dso)})"
      end

      def library(dso)
        return "anonymous memory" if dso.nil? || dso == UNKNOWN || dso.start_with?("//anon")

        File.basename(dso)
      end
    end
  end
end
