# frozen_string_literal: true

require_relative "test_helper"
require_relative "hostile_helper"

# A user's exception can never stall a run nor make its report a lie: its
# description (Harness::ErrorText) never raises and is bounded, in the
# child and in every model's workers, so a run ends failed with what the
# work raised, never by the time limit and never as "garbage on fd 3".
class FightingExceptionsTest < Minitest::Test
  include CLIHelper
  include TempDir
  include HostileHelper

  FIXTURE = File.join(FIXTURES, "fighting_exceptions.rb")
  MODELS = "serial,threads,processes,ractors,ractors-pipeless,ractors-batched"
  EXPECTED = {
    "x-message-raises" => /MessageRaises: FightingExceptions::MessageRaises \(its #message raised\)/,
    "x-huge-message" => /ArgumentError: m{100}.*\.\.\. \(20000000 bytes in all; the first 4096 shown\)/,
    "x-huge-binary" => /ArgumentError: .*\(20000000 bytes in all; the first 4096 shown\)/,
    "x-message-not-text" => /MessageNotText: 42/,
    "x-name-lies" => /FightingExceptions::NameLies: named/,
    "x-backtrace-raises" => /BacktraceRaises: traced/,
    "x-not-standard" => /NotStandard: not standard/
  }.freeze

  def test_every_model_reports_an_exception_that_fights_back_truly_and_bounded
    result = guarded("run", "--load", FIXTURE, "-w", EXPECTED.keys.join(","), "-m", MODELS, "--workers", "2",
      "--messages", "1", "--reps", "1", "--timeout", "60", "-o", @out)
    assert_equal 1, result.code, result.err
    runs = runs_in(@out)
    assert_equal EXPECTED.size * MODELS.split(",").size, runs.size
    runs.each do |run|
      assert_equal %w[failed exception], run.values_at("status", "failure"), "#{run["id"]}: #{run["reason"]}"
      assert_match EXPECTED.fetch(run["workload"]), run["reason"], run["id"]
      assert_operator run["reason"].bytesize, :<, 20_000, run["id"] # 4 KB, each byte not UTF-8 shown as \\xFF
      refute_match(/garbage on the result channel/, run["reason"])
    end
    assert_operator File.size(@out), :<, 2_000_000, "the 20 MB messages stayed out of the file"
  end

  # Descriptors closed by number (0-2, 3-10, 0-10), by the work and by the
  # file as it loads: the harness's own descriptors (the result channel, a
  # forked worker's pipes) are out of reach and the figures it reads from
  # /proc never fail a run, so every run is measured, under every model.
  def test_closing_descriptors_by_number_closes_nothing_of_the_runs
    closes_at_load = File.join(@dir, "closes_at_load.rb")
    File.write(closes_at_load, "require #{FIXTURE.dump}\nFightingExceptions.close_descriptors(0..10)\n")
    workloads = %w[x-close-std x-close-fds x-close-all]
    models = "#{MODELS},processes-split,fibers"
    result = guarded("run", "--load", FIXTURE, "--load", closes_at_load, "-w", workloads.join(","), "-m", models,
      "--workers", "2", "--messages", "3", "--reps", "1", "--timeout", "60", "-o", @out)
    runs = runs_in(@out)
    assert_equal workloads.size * models.split(",").size, runs.size, result.err
    runs.each { |run| assert_equal "ok", run["status"], "#{run["id"]}: #{run["reason"]} #{run["stderr_tail"]}" }
    refute_match(%r{/harness/}, result.err)
  end

  # Every IO object closed (the channel's too, wherever its descriptor
  # is): the run fails with one line saying what its code closed, never a
  # frame of the harness and never by the time limit.
  def test_closing_the_runs_own_io_objects_fails_it_with_what_was_closed
    result = guarded("run", "--load", FIXTURE, "-w", "x-close-every-io", "-m", "serial,threads,processes,processes-split",
      "--workers", "2", "--messages", "3", "--reps", "1", "--timeout", "60", "-o", @out)
    assert_equal 1, result.code, result.err
    runs = runs_in(@out)
    assert_equal 4, runs.size
    runs.each do |run|
      assert_equal "failed", run["status"], run["id"]
      shown = [run["reason"], *run["stderr_tail"]].compact.join("\n")
      # A forked worker's own line may be cut short by the run's end: its
      # supervisor then names the worker that stopped answering.
      assert_match(/the run's code closed (ractorbench's result channel \(file descriptor \d+\) before its record was sent|worker \d+'s pipes to its supervisor) \(closed stream\)|\Araised EOFError: worker \d+ exited before answering/, shown, run["id"])
      refute_match(%r{/harness/}, shown, "#{run["id"]} shows the harness's own code")
    end
    refute_match(%r{/harness/}, result.err)
  end

  # A try file that closes descriptors 0-10 as it loads and in work: its
  # check (a forked copy per part, fibers under a scheduler) and its runs
  # keep theirs out of reach, so it is checked and measured like any other.
  def test_a_try_file_that_closes_descriptors_is_checked_and_measured
    path = File.join(@dir, "closer.rb")
    File.write(path, <<~RUBY)
      def close_low = (0..10).each { |fd| IO.for_fd(fd).close rescue nil }
      close_low

      module Closer
        def self.work(i)
          close_low
          sleep 0.001
          i * 2
        end
      end
    RUBY
    result = guarded("try", path, "-m", "serial,threads,processes,ractors-batched,fibers", "--workers", "2", "--reps", "1",
      "--items", "20", "-o", @out)
    assert_equal 0, result.code, result.err
    runs = runs_in(@out)
    assert_equal 5, runs.size
    runs.each { |run| assert_equal "ok", run["status"], "#{run["id"]}: #{run["reason"]}" }
  end

  # try's check calls work itself: the same descriptions, one line.
  def test_try_names_an_exception_whose_message_raises_in_one_line
    {
      "class Evil < StandardError\n  def message = raise(\"no\")\nend\nmodule EvilWork\n  def self.work(i) = raise(Evil)\nend\n" =>
        /EvilWork\.work\(item 0\) raised Evil: Evil \(its #message raised\)/,
      "module HugeWork\n  def self.work(i) = raise(ArgumentError, \"h\" * 20_000_000)\nend\n" =>
        /HugeWork\.work\(item 0\) raised ArgumentError: h+\.\.\. \(20000000 bytes in all; the first 4096 shown\)/,
      "module ItemsWork\n  def self.items(n) = raise(Class.new(StandardError) { def message = raise(\"x\") })\n  def self.work(i) = i\nend\n" =>
        /ItemsWork\.items\(\d+\) raised an anonymous exception: .*\(its #message raised\)/
    }.each_with_index do |(source, message), i|
      path = File.join(@dir, "fight#{i}.rb")
      File.write(path, source)
      result = Timeout.timeout(120) { ractorbench("try", path, "-o", File.join(@dir, "t#{i}.jsonl")) }
      assert_usage_error result, message
      assert_operator result.err.bytesize, :<, 10_000
    end
  end
end
