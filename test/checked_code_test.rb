# frozen_string_literal: true

require "test_helper"
require "hostile_helper"

# The code measured is the code checked: try records the SHA-1 of the
# file its check saw; before each run the collector compares the file
# with it (a changed file stops the sweep with one line), and each run
# loads exactly the bytes it compared (or fails). --resume refuses a file
# that changed.
class CheckedCodeTest < Minitest::Test
  include CLIHelper
  include TempDir
  include HostileHelper

  def work(rounds) = "module Edited\n  def self.work(item) = (1..#{rounds}).sum { |i| i * item % 7 } * 0 + item\nend\n"

  def setup
    super
    @file = File.join(@dir, "edited.rb")
    File.write(@file, work(20_000))
    @out = File.join(@dir, "edited.jsonl")
  end

  def try_changed_midway(&change)
    changed_midway("try", @file, "-m", "threads", "--workers", "1,2", "--reps", "8", "--items", "100", "-o", @out, results: @out,
      &change)
  end

  def assert_stopped(result)
    assert_equal 2, result.code, result.err
    assert_equal 1, result.err.lines.grep(/changed/).size, result.err
    assert_match(/\Aractorbench: #{Regexp.escape(@file)} changed since ractorbench checked it \(SHA-1 \h{12}\.\.\., now \h{12}\.\.\.\): what would run is not the code checked; the collection stopped before its next run: the \d+ runs? before are in #{Regexp.escape(@out)}/,
      result.err.lines.last)
    refute_match(/Recommendation|speedup/, result.out, "no verdict on a mix of two programs")
    runs = runs_in(@out)
    assert_operator runs.size, :<, 24, "the sweep stopped"
    runs.reject { |r| r["status"] == "ok" }.each { |r| assert_match(/changed since ractorbench checked it/, r["reason"].to_s) }
    resumed = ractorbench("run", "--resume", @out)
    assert_usage_error(resumed, /cannot resume .*: .*edited\.rb changed since ractorbench checked it .*; it can only be run again from the start/)
  end

  def test_editing_the_file_during_a_sweep_stops_it
    assert_stopped(try_changed_midway { File.write(@file, work(100_000)) })
  end

  # Held out: saved as editors do, a new file renamed over the old.
  def test_a_file_replaced_by_a_rename_stops_it
    assert_stopped(try_changed_midway do
      File.write("#{@file}.new", work(100_000))
      File.rename("#{@file}.new", @file)
    end)
  end

  # Held out: touched, same bytes: the same code, the sweep goes on.
  def test_a_touched_file_is_the_same_code
    result = try_changed_midway { File.utime(Time.now + 60, Time.now + 60, @file) }
    assert_includes [0, 1], result.code, result.err
    runs = runs_in(@out)
    assert_equal 24, runs.size, "the whole sweep ran"
    refute(runs.any? { |r| r["reason"].to_s.include?("changed") }, runs.map { |r| r["reason"] }.compact.join("; "))
  end

  # Held out: the run's own check, for a change after the collector's: the
  # bytes compared are the bytes loaded, or nothing is.
  def test_a_run_never_loads_a_file_other_than_the_one_checked
    script = <<~RUBY
      require "#{ROOT}/harness/try/target"
      checked = Ractorbench::Harness::Try::Target.digest(File.binread(#{@file.dump}))
      File.write(#{@file.dump}, File.read(#{@file.dump}).sub("Edited", "Other"))
      begin
        Ractorbench::Harness::Try::Target.load(#{@file.dump}, nil, digest: checked)
      rescue Ractorbench::Harness::Try::FileChanged => e
        puts e.message
      end
      puts defined?(Other).inspect
    RUBY
    result = ruby_script(script)
    assert_match(/edited\.rb changed since ractorbench checked it/, result.out, result.err)
    assert_equal "nil", result.out.lines.last.chomp, "the changed file was not loaded"
  end
end
