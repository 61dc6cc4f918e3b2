# frozen_string_literal: true

require_relative "test_helper"

# A run dies with its collector (Harness::ParentDeath: Linux's
# PR_SET_PDEATHSIG). The kernel ties that signal to the thread that started
# the child, not to its process, which is why Measure::Launcher starts each
# run from the thread that then waits for it. Shown here with the harness's
# own request: a child started from a Ruby thread that has ended is killed at
# once where that thread's end ends its native thread (Ruby 3.1 when no new
# thread takes the native thread over; Ruby 4.0 keeps it, and the test skips).
class ParentDeathTest < Minitest::Test
  def test_the_signal_follows_the_thread_that_started_the_child
    skip "PR_SET_PDEATHSIG is Linux's" unless RUBY_PLATFORM.include?("linux")
    arm = "require #{File.join(ROOT, "harness/ractorbench/harness/parent_death").dump}; " \
      "Ractorbench::Harness::ParentDeath.arm; sleep 3"
    from_main = Process.spawn(RbConfig.ruby, "-e", arm)
    from_thread = Thread.new { Process.spawn(RbConfig.ruby, "-e", arm) }.value
    _, thread_status = Process.wait2(from_thread)
    _, main_status = Process.wait2(from_main)
    assert main_status.success?, "a child of a thread that lives is left alone: #{main_status.inspect}"
    skip "this Ruby keeps an ended thread's native thread (#{thread_status.inspect})" if thread_status.success?
    assert_equal Signal.list.fetch("KILL"), thread_status.termsig, thread_status.inspect
  end
end
