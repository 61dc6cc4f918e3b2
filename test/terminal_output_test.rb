# frozen_string_literal: true

require_relative "test_helper"
require_relative "tmux_helper"
require_relative "synthetic_results"
require "ractorbench/store"
require "ractorbench/analysis"
require "ractorbench/reports/summary"
require "ractorbench/base/console"
require "ractorbench/analysis/rows"

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
      assert_match(/ractors-pipeless +10×1000 +10 +\d+ms \[\d+, \d+\] +\d\.\d\d× \[\d\.\d\d, \d\.\d\d\]/, text)
      assert_fits(text, width, "the whole summary at #{width}")
    end
    wide = Ractorbench::Reports::Summary.render(analysis, wide: true)
    assert_match(/\| workload +\| model +\| W +\| M +\| ruby +\| n +\| messages-only s/, wide)
  end

  # Colour takes no room: a coloured line as long as the width stays whole,
  # and a longer one breaks where its visible text does.
  def test_width_counts_what_shows
    red = ->(text) { "\e[31m#{text}\e[0m" }
    line = "WARNING: #{red["x" * 20]} #{"word " * 12}".strip
    assert_equal 89, Ractorbench::Console.visible_length(line)
    assert_equal line, Ractorbench::Console.wrap(line, 89)
    wrapped = Ractorbench::Console.wrap(line, 60).lines.map(&:chomp)
    assert_equal ["WARNING: #{red["x" * 20]} #{"word " * 6}".strip, "         #{"word " * 6}".rstrip], wrapped
    table = Ractorbench::Reports::Parts::Columns.new(%w[name version path], spill: true)
    table.group("ruby-4.0.0", [["4.0.0", "/opt/rubies/ruby-4.0.0/bin/ruby"]])
    assert_equal ["name        version  path", "-" * 52, "ruby-4.0.0  4.0.0    /opt/rubies/ruby-4.0.0/bin/ruby"], table.to_s(80).lines.map(&:chomp)
    assert_equal ["name        version", "-" * 19, "ruby-4.0.0  4.0.0", "    /opt/rubies/ruby-4.0.0/bin/ruby"], table.to_s(40).lines.map(&:chomp),
      "the path goes under its row when the line would not fit"
  end

  # The tour's table (long names, intervals, a row in red) on real terminals:
  # in columns at every width, coloured or not, as wide as the terminal
  # allows and never wider; the terminal does not wrap it and nothing
  # re-wraps it word by word.
  def test_the_summary_table_keeps_its_columns_on_any_terminal
    file = File.join(ROOT, "examples", "results", "tour.jsonl")
    analysis = Ractorbench::Analysis.new(Ractorbench::Store.read(file))
    [100, 132, 200].each do |width|
      expected = Ractorbench::Reports::Summary.compact(Ractorbench::Analysis::Rows.for(analysis), width, ->(t, _) { t }).lines.map(&:chomp)
      assert_columns(expected, "#{width} columns")
      [true, false].each do |colour|
        screen = on_terminal([RbConfig.ruby, EXE, "report", file], width: width, env: {"NO_COLOR" => (colour ? nil : "1"), "COLUMNS" => nil},
          escapes: true)
        what = "report at #{width} columns, #{colour ? "coloured" : "NO_COLOR"}"
        assert_equal 0, screen.code, screen.text
        assert_fits(screen.text, width, what)
        table = table_on(screen.lines, expected.size)
        assert_equal expected, table.map { |l| l.gsub(ESCAPE, "") }, what
        coloured = table.grep(ESCAPE)
        colour ? assert_speedups_coloured(expected, coloured.join("\n"), what) : assert_empty(coloured, what)
      end
      # From 104 columns the longest name has room on one line.
      assert_match (width > 100) ? /\Aalloc \(iterations=\d+\)\z/ : /\Aalloc\z/, expected[2][/\A\S.*?(?=  )/]
    end
  end

  # A speedup whose interval lies wholly below 1 is red, wholly above 1
  # green; the recorded tour has both.
  def assert_speedups_coloured(plain_lines, coloured, what)
    cells = plain_lines.join("\n").scan(/(\d+\.\d+× \[([\d.]+), ([\d.]+)\])/)
    red = cells.select { |_, _, high| high.to_f < 1 }.map(&:first)
    green = cells.select { |_, low, _| low.to_f > 1 }.map(&:first)
    refute_empty red, "#{what}: the tour has a speedup below 1"
    refute_empty green, "#{what}: the tour has a speedup above 1"
    red.each { |cell| assert_includes coloured, "\e[31m#{cell}\e[", what }
    green.each { |cell| assert_includes coloured, "\e[32m#{cell}\e[", what }
  end

  # run's closing table, piped with COLUMNS=132 and on a 100-column
  # terminal in colour: in columns, and `report FILE` shows the same table
  # at the same width.
  def test_run_ends_with_the_table_report_shows_again
    run = ["run", "-w", "alloc", "-m", "serial,ractors-pipeless", "--param", "iterations=1000", "--workers", "2", "--messages", "20", "--reps", "6"]
    piped = File.join(@dir, "piped.jsonl")
    result = ractorbench(*run, "-o", piped, env: {"COLUMNS" => "132"})
    assert_equal 0, result.code, result.err
    assert_match(/this shows them again, with every statistic behind `--format text`:\n    ractorbench report #{Regexp.escape(piped)}\n/,
      result.err)
    ran = table_on(result.out.lines.map(&:chomp))
    assert_columns(ran, "run piped with COLUMNS=132")
    assert_equal "alloc (iterations=1000)  serial", ran[2][/\A\S.*?serial/], "the name on one line at 132 columns"
    assert_equal ran, table_on(ractorbench("report", piped, env: {"COLUMNS" => "132"}).out.lines.map(&:chomp))

    shown = File.join(@dir, "shown.jsonl")
    screen = on_terminal([RbConfig.ruby, EXE, *run, "-o", shown], width: 100, env: {"NO_COLOR" => nil, "COLUMNS" => nil}, escapes: true)
    assert_equal 0, screen.code, screen.text
    assert_fits(screen.text, 100, "run on a 100-column terminal")
    ran = table_on(screen.lines)
    assert_columns(ran.map { |l| l.gsub(ESCAPE, "") }, "run on a 100-column terminal")
    again = on_terminal([RbConfig.ruby, EXE, "report", shown], width: 100, env: {"NO_COLOR" => nil, "COLUMNS" => nil}, escapes: true)
    assert_equal ran, table_on(again.lines), "report shows the table run ended with"
    # The commands run and report print for pasting, pasted as printed (run's
    # at 100 columns, report's at 80): each runs and shows the file again.
    at80 = on_terminal([RbConfig.ruby, EXE, "report", shown], width: 80, env: {"NO_COLOR" => nil, "COLUMNS" => nil})
    [[screen.lines.map { |l| l.gsub(ESCAPE, "") }, "run"], [at80.lines, "report"]].each do |lines, what|
      command = lines.find { |l| l.start_with?("    ractorbench report ") }
      refute_nil command, "#{what} prints its report command on a line of its own"
      pasted = Open3.capture2e("sh", "-c", "ractorbench() { #{[RbConfig.ruby, EXE].shelljoin} \"$@\"; }\n#{command}")
      assert pasted.last.success?, "#{what}'s command as printed: #{command}\n#{pasted.first}"
      assert_includes pasted.first, "alloc", what
    end
  end

  def test_list_rubies_and_help_fit_the_terminal
    [%w[list], %w[rubies], %w[help], %w[try --help]].each do |args|
      screen = on_terminal([RbConfig.ruby, EXE, *args], width: 80, env: {"COLUMNS" => nil})
      assert_equal 0, screen.code, screen.text
      assert_fits(screen.text, 80, args.join(" "))
      assert_operator screen.lines.size, :>, 5, args.join(" ")
    end
    %w[report run try].each do |command|
      help = ractorbench(command, "--help", env: {"COLUMNS" => "80"}).out
      assert_fits(help, 80, "#{command} --help")
      assert_match(/^    2   bad input/, help)
    end
  end

  # The compact table's lines (heading, rule, rows) among lines: from its
  # heading, count lines or up to the next line flush left that is no row.
  def table_on(lines, count = nil)
    plain = lines.map { |l| l.gsub(ESCAPE, "") }
    head = plain.index { |l| l.match?(/\Aworkload +model +W×M +n +median +speedup +CPU cost\z/) }
    refute_nil head, "the summary table's heading:\n#{plain.join("\n")}"
    return lines[head, count] if count

    width = plain[head].length
    model = plain[head].index("model")
    size = plain[head + 2..].take_while { |l| (l.length == width && l[model - 1] == " ") || (l.length < model && !l.empty?) }.size
    lines[head, size + 2]
  end

  # Rows in the heading's columns: each model where "model" starts, the
  # right-aligned n, speedup and CPU cost ending where their headings end.
  def assert_columns(table, what)
    heading, rule, *rows = table
    assert_match(/\A-+\z/, rule, what)
    refute_empty rows, what
    model = heading.index("model")
    ends = [heading.index(" n ") + 1, heading.index("speedup") + 6, heading.length - 1]
    rows.reject { |row| row.length <= model }.each do |row|
      assert_equal " ", row[model - 1], "#{what}: the first column, padded: #{row}"
      assert_match(/\A[a-z]/, row[model], "#{what}: the model under its heading: #{row}")
      assert_equal heading.length, row.length, "#{what}: the row as wide as the heading: #{row}"
      ends.each { |i| refute_equal " ", row[i], "#{what}: a right-aligned cell ends at #{i}: #{row}" }
    end
  end
end
