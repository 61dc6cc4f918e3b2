# frozen_string_literal: true

require "test_helper"
require "hostile_helper"

# Hostile corpus, round two, class 3 (issue 23): runs that damage the
# collection. Promise: the collector owns its file — no run destroys the
# runs already written (a results file truncated, overwritten, replaced or
# deleted, or its folder removed, is written back whole, or the collection
# stops saying where the runs are and how to resume), and a signal a run
# sends its collector is the run's fault, not a stop the user asked for.
class OwnedFileTest < Minitest::Test
  include CLIHelper
  include TempDir
  include HostileHelper

  # Truncating the file by its path used to destroy the header and every
  # earlier run: exit 2, and neither report nor --resume took the file.
  def test_a_truncated_or_overwritten_file_is_written_back_whole
    {"h-truncate" => {}, "h-truncate " => {"HOSTILE_KEEP" => "100"}, "h-overwrite" => {}}.each do |workload, env|
      File.delete(@out) if File.exist?(@out)
      result = hostile("noop,#{workload.strip}", "--reps", "3", "--seed", "5", env: env)
      assert_equal 0, result.code, result.err
      assert_match(/warning: .*r\.jsonl (was cut to \d+ bytes|was overwritten) during the collection; it was written back whole from the collector's copy \(the header and \d+ finished runs?, \d+ bytes\)/, result.err)
      assert_equal 6, runs_in(@out).size, "every run is in the file"
      assert_equal 0, ractorbench("report", @out).code
      assert_plan_completes
    end
  end

  def test_a_replaced_file_is_written_back_whole_and_the_other_kept_aside
    result = hostile("noop,h-replace", "--reps", "2")
    assert_equal 0, result.code, result.err
    assert_match(/r\.jsonl was replaced during the collection \(what replaced it is now .*r\.jsonl\.replaced-\d+\); it was written back whole/, result.err)
    assert_equal 4, runs_in(@out).size
    aside = Dir[File.join(@dir, "r.jsonl.replaced-*")]
    refute_empty aside
    assert_equal "not the results\n", File.read(aside.last)
    assert_plan_completes
  end

  # The folder removed used to get a line saying the runs "are kept" and
  # suggesting --resume of a file that no longer existed.
  def test_a_removed_folder_is_made_again_with_the_file_written_back
    out = File.join(@dir, "results", "r.jsonl")
    FileUtils.mkdir_p(File.dirname(out))
    result = hostile("noop,h-remove-folder", "--reps", "2", results: out)
    assert_equal 0, result.code, result.err
    assert_match(/r\.jsonl and its folder .*results were deleted during the collection; the folder was made again; it was written back whole/, result.err)
    assert_equal 4, runs_in(out).size
    assert_plan_completes(out)
  end

  def test_a_folder_that_cannot_be_made_again_stops_saying_where_the_runs_are
    out = File.join(@dir, "results", "r.jsonl")
    FileUtils.mkdir_p([File.dirname(out), File.join(@dir, "tmp")])
    # The copy goes to the temporary folder when its own is gone: the test's.
    env = {"HOSTILE_BLOCK" => "1", "TMPDIR" => File.join(@dir, "tmp")}
    result = hostile("noop,h-remove-folder", "--reps", "2", "--seed", "9", results: out, env: env)
    assert_equal 1, result.code, result.err
    assert_equal 2, result.err.lines.size, "one line after the collection's first, no trace: #{result.err}"
    line = result.err.lines.last
    assert_match(/r\.jsonl and its folder .*results were deleted during the collection, and could not be written back \(.*\); the header and \d+ finished runs?, \d+ bytes are in (\S+): fix that, then `ractorbench run --resume \S+` finishes it/, line)
    kept = line[/ are in (\S+):/, 1]
    assert kept.start_with?(File.join(@dir, "tmp")), kept
    File.delete(File.join(@dir, "results"))
    # Resumed, h-remove-folder acts on the first path again (gone): the copy stays put.
    resumed = resume(kept, env: {"HOSTILE_RESULTS" => out})
    assert_includes [0, 1], resumed.code, resumed.err
    assert_plan_exact(kept)
  end

  # A run that signals its collector used to be taken for the user
  # stopping it, so every --resume stopped again and the collection never
  # finished. The first time it stops (a user may send that signal too) and
  # says so; the run does it again on --resume and is failed; the
  # collection finishes.
  def test_a_run_that_signals_its_collector_is_failed_on_the_next_resume
    {"TERM" => 143, "INT" => 130, "HUP" => 129}.each do |signal, code|
      out = File.join(@dir, "#{signal}.jsonl")
      env = {"HOSTILE_SIGNAL" => signal}
      first = hostile("h-signal-parent,noop", "--reps", "1", results: out, env: env)
      assert_equal code, first.code, first.err
      assert_match(/stopped by SIG#{signal}: .*SIG#{signal} came to ractorbench alone, not to its process group .* while h-signal-parent\S* ran: if you did not send it, that run did/, first.err)
      again = resume(out, env: env)
      assert_equal 1, again.code, again.err
      run = run_of("h-signal-parent", out)
      assert_equal %w[failed signal], run.values_at("status", "failure")
      assert_match(/sent SIG#{signal} to its collector/, run["reason"])
      assert_equal "ok", run_of("noop", out)["status"]
      assert_plan_exact(out)
    end
  end

  # Ctrl-C reaches the collector's whole process group: the user's stop,
  # however often it falls on the same run.
  def test_a_stop_sent_to_the_process_group_never_fails_the_run
    FileUtils.touch(File.join(@dir, "hang"))
    2.times do |attempt|
      FileUtils.rm_f(File.join(@dir, "hang.pid"))
      err = File.join(@dir, "err#{attempt}")
      pid = if attempt.zero?
        hostile_in_background("h-hang,noop", "--reps", "1", err: err, pgroup: true)
      else
        Process.spawn(hostile_env, RbConfig.ruby, EXE, "run", "--resume", @out, out: File::NULL, err: err, pgroup: true)
      end
      wait_for { File.exist?(File.join(@dir, "hang.pid")) }
      Process.kill(:INT, -pid)
      _, status = Timeout.timeout(60) { Process.wait2(pid) }
      assert_equal 130, status.exitstatus, File.read(err)
      refute_match(/came to ractorbench alone/, File.read(err))
    end
    File.delete(File.join(@dir, "hang"))
    finished = resume
    assert_equal 0, finished.code, finished.err
    assert_equal "ok", run_of("h-hang")["status"]
    assert_plan_exact(@out)
  ensure
    FileUtils.rm_f(File.join(@dir, "hang"))
  end
end
