# frozen_string_literal: true

require "test_helper"
require "shellwords"
require "hostile_helper"

# Every command that writes a results file (run, a suite, the tour, try,
# Ractorbench.try) can be stopped with Ctrl-C and finished later: its stop
# line names a command, and that command, run as printed, takes the file.
class ResumeEveryWriterTest < Minitest::Test
  include CLIHelper
  include TempDir
  include HostileHelper

  STEADY = File.join(FIXTURES, "try", "steady.rb")

  def test_a_stopped_try_is_finished_by_the_command_its_stop_line_prints
    stopped = stopped_after(2, "try", STEADY, "-m", "threads", "--workers", "1,2", "--reps", "6", "--items", "200")
    finished = run_printed(stopped)
    assert_equal 0, finished.code, finished.err
    assert_match(/resuming .*: \d+ runs? done, [1-9]\d* to go/, finished.err)
    assert_plan_exact(@out)
  end

  def test_a_stopped_suite_of_ops_per_second_runs_is_finished
    stopped = stopped_after(2, "run", "--suite", "concurrently-call-methods", "--scale", "0.02", "--reps", "1")
    finished = run_printed(stopped)
    assert_includes [0, 1], finished.code, finished.err
    assert_plan_exact(@out)
  end

  # The tour is long: its resume is shown to start (the file taken), then
  # stopped again, and its own stop line says the same.
  def test_a_stopped_tour_is_taken_by_the_command_its_stop_line_prints
    stopped = stopped_after(1, "tour", "--reps", "1")
    command = printed_command(stopped)
    again = stop_when(->(err) { err.include?("resuming") }, *command)
    assert_match(/resuming .*: \d+ runs? done, \d+ to go/, again)
    assert_equal command, printed_command(again), "the resumed tour's stop line says the same"
  end

  # A held-out writer: the Ruby API's try.
  def test_a_stopped_api_try_is_finished
    script = "require 'ractorbench'; begin; Ractorbench.try(#{STEADY.dump}, workers: [1, 2], reps: 6, items: 200, models: ['threads'], " \
      "output: #{@out.dump}); rescue Ractorbench::Exit => e; $stderr.puts e.message; end"
    err = stop_when(->(_) { run_lines >= 2 }, RbConfig.ruby, "-I", File.join(ROOT, "lib"), "-e", script)
    finished = run_printed(err)
    assert_equal 0, finished.code, finished.err
    assert_plan_exact(@out)
  end

  # try -o EXISTING names only commands that exist, and the one it names
  # takes the file (a finished try: nothing to go).
  def test_try_onto_an_existing_file_suggests_a_command_that_works
    assert_equal 0, ractorbench("try", STEADY, "-m", "threads", "--workers", "1", "--reps", "1", "--items", "4", "-o", @out).code
    refused = ractorbench("try", STEADY, "-o", @out)
    assert_usage_error(refused, /already exists/)
    command = printed_command(refused.err)
    assert_equal %w[ractorbench run --resume], command.first(3)
    finished = ractorbench(*command.drop(1))
    assert_equal 0, finished.code, finished.err
    assert_match(/0 to go/, finished.err)
  end

  # A held-out variant for every suite: the header each would write passes
  # --resume's checks (a collection whose file could not be resumed is
  # refused before it starts, Collection#resumable!).
  def test_every_suite_opens_a_resumable_collection
    target = Ractorbench::Rubies::Target.current.probe!(timeout: 120)
    opened = 0
    Ractorbench::Plan::Suite.all.each do |suite|
      options = Ractorbench::Plan::Options.new
      options.suite = suite
      catalog = options.catalog(Ractorbench::Plan::Catalog.default)
      path = File.join(@dir, "#{suite.name}.jsonl")
      collection = Ractorbench::Collection.new(catalog: catalog, entries: options.entries(catalog), rubies: [target],
        reps: options.repetitions, command: "ractorbench run --suite #{suite.name}", output: path, scaling_probe: false,
        suite: suite.name)
      begin
        collection.open.session.writer.close
      rescue Ractorbench::UsageError => e
        # This machine refuses it (too many tasks, ...): `run` would too.
        refute File.exist?(path), "#{suite.name}: #{e.message}"
        next
      end
      # --resume's own check of the file as written.
      Ractorbench::Collection::RecordedPlan.new(path, Ractorbench::Store::Header.new(results_lines(path).first), [], default_timeout: 600)
      opened += 1
    end
    assert_operator opened, :>=, 5, "most suites run here"
  end

  private

  def run_lines = File.exist?(@out) ? File.foreach(@out).count { |l| l.start_with?('{"type":"run"') } : 0

  # The command runs in its own process group until `runs` runs are in the
  # file; then Ctrl-C (SIGINT to the group). Its standard error.
  def stopped_after(runs, *args)
    err = stop_when(->(_) { run_lines >= runs }, RbConfig.ruby, EXE, *args, "-o", @out)
    assert_match(/SIGINT/, err)
    err
  end

  def stop_when(ready, *command)
    log = File.join(@dir, "err-#{rand(1 << 30)}.txt")
    pid = Process.spawn(*command, out: File::NULL, err: log, pgroup: true)
    wait_for(200) { ready.call(File.read(log)) || Process.waitpid(pid, Process::WNOHANG) }
    Process.kill(:INT, -pid)
    Process.wait(pid)
    File.read(log)
  rescue Errno::ESRCH, Errno::ECHILD
    File.read(log)
  end

  # The command the last backquoted span of the output names.
  def printed_command(err)
    quoted = err.scan(/`([^`]+)`/).flatten.last or flunk("no command printed:\n#{err}")
    Shellwords.split(quoted).tap { |words| assert_equal "ractorbench", words.first, err }
  end

  def run_printed(err)
    words = printed_command(err)
    assert_equal %w[run --resume], words[1, 2], err
    ractorbench(*words.drop(1))
  end
end
