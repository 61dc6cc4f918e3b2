# frozen_string_literal: true

module Ractorbench
  module Measure
    # The processes of this machine as /proc shows them: each one's parent,
    # process group, state and start time, whose environment holds a mark,
    # which hold a pipe. What ProcessTree and the watchdog (a separate
    # process, standard library only) look a run's processes up in. Linux
    # only; elsewhere the table is empty.
    module ProcTable
      PROC = "/proc"
      # The variable each process of a run carries in its environment, one
      # value a run: inherited by all it starts (unless one clears it).
      MARK = "RACTORBENCH_RUN"

      # One process: its state letter ("Z" a zombie), parent, group and
      # start time (clock ticks after boot).
      Entry = Struct.new(:pid, :state, :ppid, :pgid, :started) do
        def live? = !%w[Z X x].include?(state)
      end

      module_function

      # {pid => Entry} of every process now.
      def snapshot
        pids.each_with_object({}) do |pid, table|
          entry = entry(pid)
          table[pid] = entry if entry
        end
      end

      # From /proc/PID/stat: the fields after the parenthesised name (which
      # may itself hold spaces and parentheses).
      def entry(pid)
        fields = File.read("#{PROC}/#{pid}/stat").split(") ").last.split
        Entry.new(pid, fields[0], fields[1].to_i, fields[2].to_i, fields[19].to_i)
      rescue SystemCallError, NoMethodError
        nil
      end

      # Every process below the roots in the table, the roots included.
      def below(table, roots)
        children = table.values.group_by(&:ppid)
        found = {}
        queue = roots.select { |pid| table.key?(pid) }
        until queue.empty?
          pid = queue.shift
          next if found.key?(pid)

          found[pid] = table[pid]
          queue.concat((children[pid] || []).map(&:pid))
        end
        found.values
      end

      # Live processes whose environment holds the run's mark (a zombie's reads empty).
      def marked(value)
        needle = "#{MARK}=#{value}\0"
        pids.select do |pid|
          File.binread("#{PROC}/#{pid}/environ").include?(needle)
        rescue SystemCallError
          false
        end
      end

      # Processes (not this one) holding a pipe of these inodes open.
      def holding(inodes)
        wanted = inodes.map { |i| "pipe:[#{i}]" }
        pids.select do |pid|
          next false if pid == Process.pid

          Dir.children("#{PROC}/#{pid}/fd").any? { |fd| wanted.include?(File.readlink("#{PROC}/#{pid}/fd/#{fd}")) }
        rescue SystemCallError
          false
        end
      end

      def pids
        Dir.children(PROC).filter_map { |d| Integer(d, 10) if d.match?(/\A\d+\z/) }
      rescue SystemCallError
        []
      end

      def signal(name, pid)
        Process.kill(name, pid)
        true
      rescue Errno::ESRCH, Errno::EPERM
        false
      end
    end
  end
end
