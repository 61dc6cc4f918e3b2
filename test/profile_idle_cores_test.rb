# frozen_string_literal: true

require_relative "test_helper"
require "stringio"
require "ractorbench/profile/perf_script"

# A profile's idle cores, read from perf script text: which of the cores a
# run could use ran nothing of it, and who had them. Other programs are
# charged only where a thread of the run was ready and the run's own
# threads did not fill the cores: the switch records say when each thread
# was on a core, so more workers than cores (the run's threads taking turns)
# is never "other programs", however sparse the samples.
class ProfileIdleCoresTest < Minitest::Test
  RUBY = "/opt/rubies/ruby-4.0.0/bin/ruby"

  def sample(tid, at) = "  100/#{tid} #{format("%.6f", at)}:    1000000 cpu-clock:\n\t    55aa vm_exec_core (#{RUBY})\n\n"

  def switch(tid, at, way, preempt: false) = "  100/#{tid} #{format("%.6f", at)}: PERF_RECORD_SWITCH #{way}#{" preempt" if preempt}\n"

  def summary(text, capacity) = Ractorbench::Profile::PerfScript.summary(StringIO.new(text), interpreter: ->(dso) { dso == RUBY }, capacity: capacity)

  def others(summary) = summary.to_h.dig("idle", "others").to_f

  # Threads 101 and 102 take turns on one core, 4 ms each, from 1.000 s to
  # 1.012 s, each preempted for the other; one 1 ms sample each turn.
  def taking_turns
    switch(101, 1.000, "IN") + sample(101, 1.002) + switch(101, 1.004, "OUT", preempt: true) +
      switch(102, 1.004, "IN") + sample(102, 1.006) + switch(102, 1.008, "OUT", preempt: true) +
      switch(101, 1.008, "IN") + sample(101, 1.010) + switch(101, 1.012, "OUT") + switch(102, 1.012, "IN") +
      sample(102, 1.0125) + switch(102, 1.013, "OUT")
  end

  def test_the_runs_own_threads_taking_turns_are_not_other_programs
    profile = summary(taking_turns, 1)
    assert_in_delta 0.0, others(profile), 1e-9, profile.to_h["idle"].inspect
  end

  def test_a_core_nobody_of_the_run_used_while_a_thread_was_ready_is_other_programs
    # Thread 101 preempted from 1.004 to 1.008 and nothing of the run on the core meanwhile.
    text = switch(101, 1.000, "IN") + sample(101, 1.002) + switch(101, 1.004, "OUT", preempt: true) +
      switch(101, 1.008, "IN") + sample(101, 1.010) + switch(101, 1.012, "OUT")
    assert_in_delta 0.004, others(summary(text, 1)), 1e-6
  end

  def test_a_thread_running_before_the_recording_began_counts_from_the_first_record
    # 102's first record is its leaving: it had the second core from 1.000.
    text = switch(101, 1.000, "IN") + sample(101, 1.002) + sample(102, 1.003) + switch(102, 1.004, "OUT") +
      switch(101, 1.004, "OUT", preempt: true) + switch(101, 1.006, "IN") + switch(101, 1.008, "OUT")
    profile = summary(text, 2)
    # 1.004-1.006: 101 ready, neither of the two cores used by the run: 2 ms to others (one thread ready).
    assert_in_delta 0.002, others(profile), 1e-6, profile.to_h["idle"].inspect
  end
end
