# frozen_string_literal: true

require_relative "test_helper"
require_relative "tmux_helper"
require_relative "synthetic_results"
require "ractorbench/store"
require "ractorbench/analysis"
require "ractorbench/reports/summary"
require "ractorbench/console"

# What a person sees in a terminal of 80 to 100 columns: no line wider than
# the terminal (so nothing wraps into a mess), a progress bar that stays on
# one line and leaves nothing behind, colour only where it can be seen and
# is wanted.
class TerminalOutputTest < Minitest::Test
  include CLIHelper
  include TempDir
  include TmuxHelper

  ESCAPE = /\e\[[\d;]*m/

  def assert_fits(text, width, what)
    long = text.lines.map(&:chomp).reject { |l| l.gsub(ESCAPE, "").length <= width }
    assert_empty long, "#{what}: lines wider than #{width} columns"
  end

  # The run labels (with their parameters) are longer than what is left of
  # an 80-column line beside the bar: they are cut, the bar is not, and
  # the line never wraps. Once done, no bar is left on the screen.
  def test_the_progress_bar_fits_the_terminal_and_leaves_nothing_behind
    [80, 100].each do |width|
      out = File.join(@dir, "p#{width}.jsonl")
      screen = on_terminal([RbConfig.ruby, EXE, "run", "--load", fixture("failing_workloads.rb"), "-w", "sleeper,raiser",
        "-m", "serial,threads", "--param", "seconds=0.04", "--workers", "1", "--messages", "4", "--reps", "3", "-o", out],
        width: width, env: {"COLUMNS" => nil, "NO_COLOR" => nil})
      assert_equal 1, screen.code, screen.text # the raiser's runs fail
      bars = screen.snapshots.flatten.grep(/\d+% +\d+\/12 \|/)
      refute_empty bars, "the bar was drawn while the runs ran (#{screen.snapshots.size} snapshots)"
      bars.each { |bar| assert_operator bar.length, :<, width, "the bar stays within #{width} columns: #{bar}" }
      screen.snapshots.each { |lines| assert_fits(lines.join("\n"), width, "the screen while running") }
      assert_fits(screen.text, width, "the screen at the end")
      assert_empty screen.lines.grep(/ETA|\|[=>\s]*\|/), "no progress bar left behind:\n#{screen.text}"
      assert_equal 1, screen.lines.grep(/^ractorbench: 12 runs done in \d+ s$/).size
      assert_equal 6, screen.lines.grep(/^FAILED raiser\//).size, "each failure said once as it happened"
      assert_equal 12, runs_in(out).size
    end
  end

  def test_colour_on_a_terminal_only_when_wanted
    report = ["report", File.join(FIXTURES, "results", "two_rubies.jsonl")]
    coloured = on_terminal([RbConfig.ruby, EXE, *report], width: 100, env: {"NO_COLOR" => nil}, escapes: true)
    assert_match(/\e\[33mWARNING:\e\[\d*m/, coloured.text, "warnings in yellow")
    assert_match(/\e\[32mDigests agree/, coloured.text)
    [[{"NO_COLOR" => "1"}, []], [{"NO_COLOR" => nil}, ["--no-color"]]].each do |env, flag|
      plain = on_terminal([RbConfig.ruby, EXE, *report, *flag], width: 100, env: env, escapes: true)
      refute_match(ESCAPE, plain.text, "#{env} #{flag}: no colour")
      assert_match(/^WARNING: /, plain.text)
    end
    piped = ractorbench(*report, env: {"NO_COLOR" => nil})
    refute_match(ESCAPE, piped.out, "not a terminal: no colour")
  end

  # Ids and reasons come from the file too: in colour, as without, their
  # control characters are shown escaped, never obeyed by the terminal.
  def test_a_coloured_report_escapes_what_the_file_holds
    lines = results_lines(File.join(FIXTURES, "results", "basic_benchmarking.jsonl"))
    lines.select { |r| r["type"] == "run" && r["rep"] == 1 }.each do |r|
      r.merge!("id" => "\e]0;pwned\a#{r["id"]}", "status" => "failed", "failure" => "exit", "reason" => "bad\e[31m")
    end
    file = File.join(@dir, "hostile.jsonl")
    File.write(file, lines.map { |l| JSON.generate(l) + "\n" }.join)
    %w[summary text].each do |format|
      screen = on_terminal([RbConfig.ruby, EXE, "report", file, "--format", format], width: 100, env: {"NO_COLOR" => nil}, escapes: true)
      assert_match(/\e\[31mFAILED\e\[\d*m \\e\]0;pwned\\aprime\//, screen.text, "#{format}: coloured, the id escaped")
      refute_match(/\e\]0;|bad\e\[31m/, screen.text, format)
    end
  end

  def test_run_the_tour_and_try_fit_100_columns
    env = {"COLUMNS" => "100"}
    outputs = {
      "run" => ractorbench("run", "--load", fixture("failing_workloads.rb"), "-w", "tarai,raiser", "-m", "serial,threads,ractors",
        "--param", "x=6", "--workers", "1,2", "--messages", "2", "--reps", "2", "-o", File.join(@dir, "r.jsonl"), env: env),
      "tour" => ractorbench("--reps", "1", "-o", File.join(@dir, "t.jsonl"), env: env),
      "try" => ractorbench("try", File.join(ROOT, "examples", "json_parse.rb"), "--reps", "2", "--workers", "1,2",
        "--items", "200", "-o", File.join(@dir, "y.jsonl"), env: env),
      "try --check" => ractorbench("try", File.join(ROOT, "examples", "unsafe_cache.rb"), "--check", env: env)
    }
    outputs.each do |what, result|
      assert_includes [0, 1], result.code, "#{what}: #{result.err}"
      refute_empty result.out, what
      assert_fits(result.out, 100, "#{what} stdout")
      assert_fits(result.err, 100, "#{what} stderr")
      refute_match(ESCAPE, result.out, "#{what}: no colour into a pipe")
    end
    assert_match(/^workload +model +W×M +n +median +speedup +CPU cost$/, outputs["tour"].out)
    assert_match(/Call methods: mere invocation of concurrent procs/, outputs["tour"].out)
    assert_match(/^ractors: cannot run this work/, outputs["try --check"].out)
  end

  # Every cell of the compact table, with 95% intervals (10 runs) and a
  # long workload name, in 80 columns; --wide is report's table.
  def test_the_compact_table_fits_80_columns_with_intervals
    samples = %w[serial threads processes ractors ractors-pipeless].each_with_index.to_h do |model, i|
      [["prime-with-a-long-name", model, 10, 1000, "ruby"], SyntheticResults.draws(10, median: 1.234 / (i + 1), seed: i)]
    end
    file = SyntheticResults.write(File.join(@dir, "s.jsonl"), samples)
    analysis = Ractorbench::Analysis.new(Ractorbench::Store.read(file))
    [80, 100].each do |width|
      text = Ractorbench::Reports::Summary.render(analysis, width: width)
      lines = text.lines
      table = lines[lines.index { |l| l.match?(/\A-+$/) } - 1..].take_while { |l| !l.start_with?("Speedup over") }
      assert_operator table.size, :>=, 7
      assert_fits(table.join, width, "the compact table at #{width}")
      assert_match(/ractors-pipeless +10×1000 +10 +\d+ms \[\d+, \d+\] +\d\.\d\d× \[\d\.\d\d, \d\.\d\d\]/, text)
      console = Ractorbench::Console.new(StringIO.new, env: {"COLUMNS" => width.to_s})
      assert_fits(console.present(text), width, "the whole summary at #{width}")
    end
    wide = Ractorbench::Reports::Summary.render(analysis, wide: true)
    assert_match(/\| workload +\| model +\| W +\| M +\| ruby +\| n +\| messages-only s/, wide)
  end
end
