# frozen_string_literal: true

module Ractorbench
  module Harness
    # How many more tasks (the kernel counts every thread and every process
    # as one) this machine has room for, under every limit that caps them:
    # the system's task ids (kernel.pid_max) and threads (kernel.threads-max),
    # the pids cgroup of this process and each one above it, and, for a user
    # other than root, the user's process limit (ulimit -u, its hard value:
    # the one each measured child is given). Read by the driver before a
    # plan starts (Plan::Capacity) and by the probe before its M:N check
    # (MNCheck), so that no count a user types becomes more threads,
    # ractors or processes than the machine can spare. Linux's /proc and
    # /sys; elsewhere nothing is known and nothing is refused.
    module TaskRoom
      # A run may take at most this share of the room left: the rest of the
      # machine (its other users, the collector itself) keeps the other half.
      SHARE = 2

      # One limit: its name, its value and the tasks it already counts.
      Limit = Struct.new(:name, :value, :used) do
        def free = [value - used, 0].max
      end

      module_function

      # The most tasks one run may start, and the limit that decides it
      # ([nil, nil] when no limit is known).
      def share
        limit = tightest
        limit ? [limit.free / SHARE, limit] : [nil, nil]
      end

      # The limit with the least room left, or nil.
      def tightest = limits.min_by(&:free)

      def limits
        tasks = system_tasks
        list = []
        if tasks
          list << limit("kernel.pid_max", read_int("/proc/sys/kernel/pid_max"), tasks)
          list << limit("kernel.threads-max", read_int("/proc/sys/kernel/threads-max"), tasks)
        end
        list.concat(cgroup_limits)
        list << user_limit
        list.compact
      end

      def limit(name, value, used) = (value && used) ? Limit.new(name, value, used) : nil

      # The fourth field of /proc/loadavg: running/total scheduling entities.
      def system_tasks
        read("/proc/loadavg")&.split&.at(3)&.split("/")&.last&.to_i
      end

      # pids.max of this process's pids cgroup and of each above it (v2, or
      # v1's pids hierarchy): a limit anywhere up the tree counts.
      def cgroup_limits
        dir = pids_cgroup_dir or return []
        limits = []
        while dir
          max = read("#{dir}/pids.max")&.strip
          if max && max != "max"
            limits << limit("the pids cgroup's pids.max (#{dir})", max.to_i, read_int("#{dir}/pids.current"))
          end
          parent = File.dirname(dir)
          dir = (parent != dir && File.exist?("#{parent}/pids.max")) ? parent : nil
        end
        limits.compact
      end

      # The folder of this process's pids cgroup, from /proc/self/cgroup and
      # the mount table; nil when there is none.
      def pids_cgroup_dir
        (read("/proc/self/cgroup") || "").each_line do |line|
          _, controllers, path = line.chomp.split(":", 3)
          v2 = controllers.to_s.empty?
          next unless v2 || controllers.split(",").include?("pids")

          mount, root = mount_of(v2 ? "cgroup2" : "cgroup", v2 ? nil : "pids")
          next unless mount
          relative = (root != "/" && path.start_with?(root)) ? path.delete_prefix(root) : path
          dir = File.join(mount, relative)
          return dir if File.exist?("#{dir}/pids.max")
        end
        nil
      end

      # [mount point, root] of a cgroup file system (with this controller).
      def mount_of(type, controller)
        (read("/proc/self/mountinfo") || "").each_line do |line|
          fields, rest = line.split(" - ", 2)
          fstype, _source, options = rest.to_s.split
          next if fstype != type || (controller && !options.to_s.split(",").include?(controller))

          parts = fields.split
          return [parts[4], parts[3]]
        end
        nil
      end

      # ulimit -u counts every task of the user; root is not held to it.
      def user_limit
        return nil if Process.uid.zero?

        _, hard = Process.getrlimit(:NPROC)
        return nil if hard == Process::RLIM_INFINITY

        limit("ulimit -u (RLIMIT_NPROC)", hard, user_tasks)
      rescue ArgumentError, NotImplementedError, SystemCallError
        nil
      end

      # Threads of every process of this user (the real uid, as the kernel counts).
      def user_tasks
        uid = Process.uid.to_s
        Dir.children("/proc").sum do |entry|
          next 0 unless entry.match?(/\A\d+\z/)

          status = read("/proc/#{entry}/status") or next 0
          (status[/^Uid:\s+(\d+)/, 1] == uid) ? status[/^Threads:\s+(\d+)/, 1].to_i : 0
        end
      rescue SystemCallError
        nil
      end

      def read_int(path)
        text = read(path)&.strip
        text && Integer(text, 10, exception: false)
      end

      def read(path)
        File.read(path)
      rescue SystemCallError, IOError
        nil
      end
    end
  end
end
