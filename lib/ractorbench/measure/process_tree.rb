# frozen_string_literal: true

require "securerandom"
require_relative "proc_table"
require_relative "run_cgroup"
require_relative "watchdog"
require_relative "sentinel"

module Ractorbench
  module Measure
    # Every process a child started, found and killed, whatever it did to
    # leave: the child's process group first, then the rest of its tree,
    # found four ways — its cgroup (RunCgroup, where one can be made), its
    # descendants by parent (with this process a subreaper while the child
    # runs, an orphan of the run is re-parented here, so a double fork or a
    # setsid'd grandchild that cleared its environment and closed its pipes
    # is still below us: Subreaper), the mark it inherited in its
    # environment, and, last, the run's pipes it holds. Each member still
    # alive outside the group is "escaped". Linux's /proc; elsewhere only the
    # group is killed. The watchdog is told of the child, so that it dies
    # with the collector too (Watchdog).
    class ProcessTree
      VARIABLE = ProcTable::MARK
      # Kill and look again until nothing of the run is alive (a process may
      # fork between a look and the kill).
      PASSES = 50
      @own = {}
      @lock = Mutex.new
      @spawning = Mutex.new

      class << self
        # Starts a child (the block spawns it and gives its pid) and marks
        # it our own before any tree looks for orphans: a child another
        # thread had just spawned (the probes of `ractorbench rubies` run
        # side by side) was taken for a run's orphan, killed and reaped,
        # and that thread's wait for it failed (ECHILD).
        def spawn_own
          @spawning.synchronize { yield.tap { |pid| own!(pid) } }
        end

        # The block's look at our children, while none is being started.
        def among_children(&block) = @spawning.synchronize(&block)

        # Children this process started on purpose (each run's child, the
        # watchdog, the sentinel): never taken for a run's orphans.
        def own?(pid) = @lock.synchronize { @own.key?(pid) } || [Watchdog.pid, Sentinel.pid].include?(pid)

        def own!(pid) = @lock.synchronize { @own[pid] = true }

        def disown(pid) = @lock.synchronize { @own.delete(pid) }
      end

      attr_reader :mark

      def initialize
        @mark = SecureRandom.hex(8)
        @started = 0
      end

      # Merged into the child's environment: inherited by all it starts.
      def env = {VARIABLE => @mark}

      # The child has just been started and has run none of the run's code
      # yet (it waits for its spec): into a cgroup of its own, and the
      # watchdog told.
      def adopt(pid)
        @root = pid
        @started = ProcTable.entry(pid)&.started || 0
        self.class.own!(pid)
        cgroup = RunCgroup.create
        if cgroup&.add(pid)
          @cgroup = cgroup
        else
          cgroup&.remove
        end
        Watchdog.guard(pid, @cgroup, @mark)
      end

      # Kills the group led by pid and everything else of the run; the pids
      # of those outside the group (escaped), which the run did not end
      # itself. Orphans re-parented here are reaped.
      def kill(pid)
        ProcTable.signal(:KILL, -pid)
        escaped = []
        orphans = []
        PASSES.times do
          members = members(pid)
          orphans |= members.select { |e| e.ppid == Process.pid && e.pid != pid }.map(&:pid)
          live = members.select(&:live?)
          break if live.empty?

          live.each do |member|
            escaped << member.pid unless member.pid == pid || member.pgid == pid
            ProcTable.signal(:KILL, member.pid)
          end
          @cgroup&.kill
          sleep 0.01
        end
        reap(orphans)
        escaped.uniq
      end

      # Processes (not this one) with a pipe of these inodes open: what would
      # keep a reader waiting for the end of a run's output.
      def kill_holders(inodes)
        ProcTable.holding(inodes).each { |p| ProcTable.signal(:KILL, p) }
      end

      # The run is over and its tree dead: the watchdog forgets it, its
      # cgroup goes.
      def release
        return unless @root

        Watchdog.release(@root)
        self.class.disown(@root)
        @cgroup&.remove
      end

      private

      # Every process of the run now, as ProcTable entries: below the child
      # and below each orphan of ours that started after it, in its cgroup,
      # or carrying its mark.
      def members(pid)
        table, orphans = self.class.among_children do
          table = ProcTable.snapshot
          [table, table.values.select { |e| e.ppid == Process.pid && e.started >= @started && !self.class.own?(e.pid) }]
        end
        found = ProcTable.below(table, [pid] + orphans.map(&:pid))
        found += (@cgroup&.pids || []).filter_map { |p| table[p] }
        found += ProcTable.marked(@mark).filter_map { |p| table[p] }
        found.uniq(&:pid).reject { |e| e.pid == Process.pid }
      end

      # Our orphans, killed: reaped now (their CPU counts in this run's), or
      # by a thread if one takes its time dying.
      def reap(pids)
        pids.each do |pid|
          reaped = 20.times.any? do
            Process.waitpid(pid, Process::WNOHANG) || (sleep(0.01) && false)
          end
          Process.detach(pid) unless reaped
        rescue Errno::ECHILD
          nil
        end
      end
    end
  end
end
