# frozen_string_literal: true

require "securerandom"

module Ractorbench
  module Measure
    # Every process a child started, found and killed: its process group
    # first, then anything that left the group (spawn(pgroup: true), setsid)
    # but still carries the run's mark in its environment, and, last resort,
    # anything still holding the run's pipes. Linux's /proc; elsewhere only
    # the group is killed.
    class ProcessTree
      VARIABLE = "RACTORBENCH_RUN"
      PROC = "/proc"

      attr_reader :mark

      def initialize
        @mark = SecureRandom.hex(8)
      end

      # Merged into the child's environment: inherited by all it starts.
      def env = {VARIABLE => @mark}

      # Kills the group led by pid and every marked process outside it; the
      # pids of those outside (escaped), which the run did not end itself.
      def kill(pid)
        signal(:KILL, -pid)
        escaped = marked.reject { |p| p == pid || group(p) == pid }
        escaped.each { |p| signal(:KILL, p) }
        escaped
      end

      # Processes (not this one) with a pipe of these inodes open: what would
      # keep a reader waiting for the end of a run's output.
      def kill_holders(inodes)
        wanted = inodes.map { |i| "pipe:[#{i}]" }
        holders = each_process.select do |p|
          next false if p == Process.pid

          Dir.children("#{PROC}/#{p}/fd").any? { |fd| wanted.include?(File.readlink("#{PROC}/#{p}/fd/#{fd}")) }
        rescue SystemCallError
          false
        end
        holders.each { |p| signal(:KILL, p) }
      end

      private

      # Live processes whose environment holds the mark (a zombie's reads empty).
      def marked
        needle = "#{VARIABLE}=#{@mark}\0"
        each_process.select do |p|
          File.binread("#{PROC}/#{p}/environ").include?(needle)
        rescue SystemCallError
          false
        end
      end

      # The process group of a process, from /proc/PID/stat (after the
      # parenthesised name, which may itself hold spaces).
      def group(pid)
        File.read("#{PROC}/#{pid}/stat").split(") ").last.split[2].to_i
      rescue SystemCallError, NoMethodError
        nil
      end

      def each_process
        Dir.children(PROC).filter_map { |d| Integer(d, 10) if d.match?(/\A\d+\z/) }
      rescue SystemCallError
        []
      end

      def signal(name, pid)
        Process.kill(name, pid)
      rescue Errno::ESRCH, Errno::EPERM
        nil
      end
    end
  end
end
