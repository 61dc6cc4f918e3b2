# frozen_string_literal: true

require_relative "proc_table"

module Ractorbench
  module Measure
    # A cgroup (v2) of its own for one run, where one can be made: every
    # process the run starts stays in it whatever it does to its session,
    # its environment or its file descriptors, and whoever is left of it —
    # the collector, or the watchdog once the collector is dead — can list
    # and kill them all. Made under a folder of this collector's
    # (ractorbench-PID) beside the collector's own cgroup; a folder left by a
    # collector that died is emptied and removed by the next one. Where no
    # cgroup can be made (no cgroup2 mounted, no permission), nil: the run's
    # tree is then found through its parents (ProcessTree).
    class RunCgroup
      PREFIX = "ractorbench-"
      @lock = Mutex.new
      @count = 0

      class << self
        # A new cgroup for a run, or nil.
        def create
          @lock.synchronize do
            home = (@home ||= make_home) or return nil
            @count += 1
            path = File.join(home, "run-#{@count}")
            Dir.mkdir(path)
            new(path)
          end
        rescue SystemCallError
          nil
        end

        # The cgroup2 folder this process is in, from /proc/self/cgroup
        # ("0::/path") and the mount table.
        def own_dir
          line = File.read("/proc/self/cgroup").lines.find { |l| l.start_with?("0::") } or return nil
          mount = File.read("/proc/self/mountinfo").lines.map(&:split).find { |f| f[f.index("-") + 1] == "cgroup2" } or return nil
          dir = File.join(mount[4], line.chomp.delete_prefix("0::"))
          File.exist?(File.join(dir, "cgroup.procs")) ? dir : nil
        rescue SystemCallError, TypeError, NoMethodError
          nil
        end

        private

        def make_home
          parent = own_dir or return nil
          sweep(parent)
          home = File.join(parent, "#{PREFIX}#{Process.pid}")
          Dir.mkdir(home) unless File.directory?(home)
          at_exit { new(home).remove }
          home
        rescue SystemCallError
          nil
        end

        # Folders of collectors no longer running: what is still in them
        # outlived its collector and its watchdog; killed, the folders removed.
        def sweep(parent)
          Dir.children(parent).each do |name|
            pid = name.delete_prefix(PREFIX)
            next unless name.start_with?(PREFIX) && pid.match?(/\A\d+\z/) && !File.exist?("/proc/#{pid}")

            home = File.join(parent, name)
            Dir.children(home).each { |run| new(File.join(home, run)).kill.remove if File.directory?(File.join(home, run)) }
            new(home).remove
          end
        rescue SystemCallError
          nil
        end
      end

      attr_reader :path

      def initialize(path)
        @path = path
      end

      # Moves pid in (before it runs any of the run's code); false if refused.
      def add(pid)
        File.write(File.join(@path, "cgroup.procs"), pid.to_s)
        true
      rescue SystemCallError
        false
      end

      # The pids of the processes in it now.
      def pids
        File.read(File.join(@path, "cgroup.procs")).split.map(&:to_i)
      rescue SystemCallError
        []
      end

      # Kills every process in it: at once where the kernel can (cgroup.kill,
      # Linux 5.14), else one by one.
      def kill
        begin
          File.write(File.join(@path, "cgroup.kill"), "1")
        rescue SystemCallError
          pids.each { |pid| ProcTable.signal(:KILL, pid) }
        end
        self
      end

      # Removed once its processes are gone (a killed process leaves within
      # moments); left in place if they do not.
      def remove
        40.times do
          return Dir.rmdir(@path)
        rescue Errno::EBUSY
          kill
          sleep 0.025
        end
      rescue SystemCallError
        nil
      end
    end
  end
end
