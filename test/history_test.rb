# frozen_string_literal: true

require "test_helper"
require "ractorbench/analysis/history"
require "ractorbench/stats/mann_whitney"

# `ractorbench history`: a series of results files, each configuration's
# trend and its steps. The series are made from one small real collection
# (fib(25) under serial and threads, two sizes), copied file by file with a
# date each; one configuration's times are then multiplied by 1.3 from a
# known file on, and the history must find that step there and nowhere
# else. The machine that runs the tests is shared, so its real runs are
# mostly marked disturbed: the copies clear those marks, and the test of
# disturbed runs sets them again where it means to.
class HistoryTest < Minitest::Test
  include CLIHelper
  include TempDir

  FILES = 10
  STEP_AT = 5 # the sixth file, 0-based
  REPS = 8

  # One real collection for every test here (a minute of the machine's
  # time each otherwise), in a folder removed at exit.
  def self.collection
    @collection ||= begin
      dir = Dir.mktmpdir
      Minitest.after_run { FileUtils.rm_rf(dir) }
      base = File.join(dir, "base.jsonl")
      _, err, status = Open3.capture3(RbConfig.ruby, EXE, "run", "-w", "fib", "-m", "serial,threads", "--workers", "1,2",
        "--messages", "2", "--param", "n=25", "--reps", REPS.to_s, "-o", base)
      raise "the collection failed: #{err}" unless status.success?

      File.readlines(base).map { |l| JSON.parse(l) }
    end
  end

  def setup
    super
    @header, *@runs = self.class.collection
    @runs = @runs.select { |r| r["type"] == "run" }
    # The steadiest configuration takes the step. On a busy machine its
    # runs, as the series holds them (a copy a file on each side of the
    # step), must differ from the same runs 30% slower by Mann-Whitney even
    # after Holm's correction over a test a configuration and two more, or
    # the step would be inside the noise and the test would say nothing.
    by_label = @runs.group_by { |r| label(r) }
    @stepped, p = by_label.map do |l, rs|
      times = rs.map { |r| r["messages_time"] }
      [l, Ractorbench::Stats::MannWhitney.test(times.map { |t| t * 1.3 } * (FILES - STEP_AT), times * STEP_AT).p]
    end.min_by(&:last)
    assert_operator p * (by_label.size + 2), :<, 0.05, "the real runs vary too much for a 30% step to stand out"
  end

  def label(run) = [run["model"], run["workers"]].join("/w")

  # FILES copies of the collection, the i-th dated day i; change(run, i)
  # may alter each run of file i. Written in reverse order of date, so the
  # history must order them itself.
  def series(count = FILES, &change)
    (0...count).map do |i|
      path = File.join(@dir, "night-#{i + 1}.jsonl")
      header = @header.merge("created_at" => format("2026-01-%02dT00:00:00Z", i + 1))
      runs = @runs.map { |r| r.merge("disturbed" => false).tap { |copy| change&.call(copy, i) } }
      File.write(path, [header, *runs].map { |line| JSON.generate(line) }.join("\n") + "\n")
      path
    end.reverse
  end

  def slower_from(step_at, factor: 1.3)
    lambda do |run, i|
      run["messages_time"] *= factor if label(run) == @stepped && i >= step_at
    end
  end

  def history(paths, *args)
    result = ractorbench("history", *paths, "--format", "json", *args)
    [result, (JSON.parse(result.out) unless result.out.empty?)]
  end

  def steps_of(json) = json["configurations"].to_h { |c| [c["configuration"], c["steps"]] }

  def stepped_label(json) = json["configurations"].map { |c| c["configuration"] }.find { |l| l.start_with?("fib/#{@stepped}/") }

  def test_a_30_percent_step_is_found_where_it_was_made_and_nowhere_else
    result, json = history(series(&slower_from(STEP_AT)), "--fail-on-change")
    assert_equal 1, result.code, result.err
    assert_equal "by the date of each file's Ruby (then when it was collected)", json["order"]
    assert_equal (1..FILES).map { |i| "night-#{i}.jsonl" }, json["files"].map { |f| f["file"] }
    steps = steps_of(json)
    stepped = stepped_label(json)
    assert_equal 4, steps.size, "two models at two sizes"
    assert_equal [STEP_AT + 1], steps.fetch(stepped).map { |s| s["from_file"] }
    assert_in_delta 0.3, steps.fetch(stepped).first["change"], 1e-9
    assert_operator steps.fetch(stepped).first["p_holm"], :<, 0.05
    steps.each { |label, found| assert_empty found, "#{label} did not change" unless label == stepped }
    assert json["configurations"].all? { |c| c["refused"].nil? }

    text = ractorbench("history", *series(&slower_from(STEP_AT)))
    assert_equal 0, text.code, "without --fail-on-change a step is news, not a failure"
    assert_match(/^STEP #{Regexp.escape(stepped)}: \+30\.0% \(slower\) from file #{STEP_AT + 1} \(night-#{STEP_AT + 1}\.jsonl, ruby /, text.out)
    assert_equal 1, text.out.scan(/^STEP /).size
  end

  def test_no_step_in_an_unchanged_series
    result, json = history(series, "--fail-on-change")
    assert_equal 0, result.code, result.err
    assert steps_of(json).values.all?(&:empty?)
  end

  def test_too_few_points_below_the_minimum
    minimum = Ractorbench::Analysis::History::MIN_POINTS
    result, json = history(series(minimum - 1, &slower_from(1)), "--fail-on-change")
    assert_equal 3, result.code, "nothing judged is inconclusive, not a pass"
    json["configurations"].each do |c|
      assert_match(/\Atoo few points: #{minimum - 1} of the #{minimum} files needed/, c["refused"])
      assert_empty c["steps"]
    end
    text = ractorbench("history", *series(minimum - 1))
    assert_includes text.out, "INCONCLUSIVE: no configuration could be judged"
  end

  # Half of the stepped configuration's runs (odd repetitions) are marked
  # disturbed in every file, as the collector marks runs other programs
  # slowed, and from the known file on those are 30% slower too: left out,
  # they must not make a step.
  def test_no_step_from_a_series_whose_only_change_is_disturbed_runs
    disturbed = lambda do |run, i|
      next unless label(run) == @stepped && run["rep"].odd?

      run["disturbed"] = true
      run["messages_time"] *= 1.3 if i >= STEP_AT
    end
    result, json = history(series(&disturbed), "--fail-on-change")
    assert_equal 0, result.code, result.err
    assert steps_of(json).values.all?(&:empty?)
    points = json["configurations"].find { |c| c["configuration"] == stepped_label(json) }["points"]
    assert_equal [REPS / 2] * FILES, points.map { |p| p["runs"] }, "only the undisturbed runs are counted"
    assert(points.all? { |p| p["counted"] }, "judged, not refused")
  end

  def test_bad_input_is_one_line
    assert_usage_error(ractorbench("history", File.join(@dir, "nothing.jsonl"), File.join(@dir, "none.jsonl")), /no such file/)
    assert_usage_error(ractorbench("history", series(1).first), /two or more results files/)
    assert_usage_error(ractorbench("history", @dir, "--order", "sideways"), /--order must be one of auto, ruby, date, given/)
    two_rubies = File.join(ROOT, "examples", "results", "two_rubies.jsonl")
    assert_usage_error(ractorbench("history", two_rubies, *series(1), "--order", "ruby"),
      /--order ruby: two_rubies\.jsonl does not record one Ruby with its date \(it records 2 Rubies\); use --order date/)
  end

  def test_the_html_page_draws_a_chart_per_configuration
    page = File.join(@dir, "history.html")
    result = ractorbench("history", *series(&slower_from(STEP_AT)), "--format", "html", "-o", page)
    assert_equal 0, result.code, result.err
    html = File.read(page)
    assert_equal 4, html.scan("<svg").size, "two models at two sizes"
    assert_includes html, "STEP "
  end

  # The method on its own: two steps in one series, each found at its place.
  def test_binary_segmentation_finds_two_steps
    points = [[10, 10.1, 9.9]] * 3 + [[13, 13.1, 12.9]] * 3 + [[9, 9.1, 8.9]] * 3
    tests = Ractorbench::Analysis::History::ChangePoints.judge({"x" => points}, alpha: 0.05)
    assert_equal [3, 6], tests.select { |t| t.reported?(0.05, 0.05) }.map(&:at).sort
  end
end
