# frozen_string_literal: true

require "fileutils"
require_relative "../harness/ractorbench/harness/task_room"

# A pids cgroup of its own for a test: every process started through
# #command runs under its pids.max, so a test can prove that no input makes
# ractorbench start more tasks than a small limit allows (root is not held
# to ulimit -u; a cgroup holds everyone). pids.events counts every fork or
# thread the limit refused: zero means nothing ever ran into it.
class PidsCgroup
  # A pids cgroup folder we may create one in, or nil (not root, no pids
  # controller): the test is skipped.
  def self.root
    task_room = Ractorbench::Harness::TaskRoom
    v1, = task_room.mount_of("cgroup", "pids")
    return v1 if v1 && File.writable?(v1)

    v2, = task_room.mount_of("cgroup2", nil)
    v2 if v2 && File.read("#{v2}/cgroup.subtree_control").split.include?("pids") && File.writable?(v2)
  rescue SystemCallError
    nil
  end

  attr_reader :dir

  def initialize(max)
    root = self.class.root or raise ArgumentError, "no pids cgroup can be made here"
    @dir = File.join(root, "ractorbench-test-#{Process.pid}-#{rand(1 << 30)}")
    Dir.mkdir(@dir)
    File.write(File.join(@dir, "pids.max"), max.to_s)
  end

  # argv run inside the cgroup (the shell moves itself in, then execs it).
  def command(*argv) = ["sh", "-c", "echo $$ > #{File.join(@dir, "cgroup.procs")} && exec \"$@\"", "sh", *argv]

  # How many times the limit refused a task.
  def refused = File.read(File.join(@dir, "pids.events"))[/max (\d+)/, 1].to_i

  def remove
    40.times do
      return Dir.rmdir(@dir)
    rescue Errno::EBUSY
      sleep 0.05
    end
  rescue Errno::ENOENT
    nil
  end
end
