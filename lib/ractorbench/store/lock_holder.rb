# frozen_string_literal: true

require_relative "../base/printable"

module Ractorbench
  module Store
    # Who holds the lock on a results file (Linux's /proc/locks), and whether
    # it is stopped: a collector a run stopped with SIGSTOP holds its file
    # for ever, silently, and the next `--resume` or `run --force` on that
    # file is the place to say so. Elsewhere, nothing more is known.
    module LockHolder
      module_function

      # What to tell whoever wanted the lock on file (at path).
      def refusal(file, path)
        pid = holder(file.stat)
        who = pid ? "another ractorbench (pid #{pid})" : "another ractorbench"
        if pid && stopped?(pid)
          return "#{path} is being written by #{who}, which is stopped (SIGSTOP, perhaps by one of its own runs): " \
            "#{Printable.command("kill", "-CONT", pid)} lets it go on, #{Printable.command("kill", pid)} ends it " \
            "(then --resume finishes the file)"
        end

        "#{path} is being written by #{who} (a run or --resume still going); wait for it to finish or stop it, then try again"
      end

      # The pid holding a flock on the file with this stat, or nil.
      def holder(stat)
        wanted = format("%02x:%02x:%d", stat.dev_major, stat.dev_minor, stat.ino)
        File.foreach("/proc/locks") do |line|
          fields = line.split
          return fields[4].to_i if fields[1] == "FLOCK" && fields[5] == wanted
        end
        nil
      rescue SystemCallError, NotImplementedError
        nil
      end

      def stopped?(pid)
        %w[T t].include?(File.read("/proc/#{pid}/stat").split(") ").last.split.first)
      rescue SystemCallError, NoMethodError
        false
      end
    end
  end
end
