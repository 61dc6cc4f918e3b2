# frozen_string_literal: true

require "test_helper"
require "chromium_helper"

# A try results file is an ordinary results file: `report` reads it, with
# every worker count measured against the one serial run of the same items,
# and the HTML report draws the sweep with the ideal and each model's
# Amdahl fit (rendered by headless Chromium, no console errors).
class TryReportTest < Minitest::Test
  include CLIHelper
  include ChromiumHelper

  # One sweep serves every test here (it is the slow part).
  def self.sweep(test)
    @sweep ||= begin
      dir = Dir.mktmpdir
      Minitest.after_run { FileUtils.rm_rf(dir) }
      results = File.join(dir, "sweep.jsonl")
      result = test.ractorbench("try", "examples/slow_service.rb", "--models", "threads,ractors", "--workers", "1,2,4",
        "--items", "8", "--reps", "1", "-o", results, chdir: ROOT)
      test.assert_equal 0, result.code, result.out + result.err
      [results, result.out]
    end
  end

  def setup
    @dir = Dir.mktmpdir
    @results, @try_out = self.class.sweep(self)
  end

  def teardown
    FileUtils.rm_rf(@dir)
  end

  def test_the_terminal_chart_has_every_worker_count_and_a_fit_per_model
    assert_match(/^\s+1\s+2\s+4\s+workers$/, @try_out)
    assert_match(/^  T  threads: /, @try_out)
    assert_match(/^  R  ractors: /, @try_out)
    assert_match(/ideal: speedup = workers, up to the \d+ usable cores/, @try_out)
  end

  def test_text_report_links_every_count_to_the_single_serial_run
    runs = runs_in(@results)
    assert_equal [1], runs.select { |r| r["model"] == "serial" }.map { |r| r["workers"] }
    json = ractorbench("report", @results, "--format", "json")
    assert_equal 0, json.code, json.err
    rows = JSON.parse(json.out)["configurations"].reject { |r| r["model"] == "serial" }
    assert_equal 6, rows.size
    assert rows.all? { |r| r["speedup"] }, "every worker count has a speedup over the serial run of the same 8 items"
  end

  def test_html_report_draws_the_sweep
    html = File.join(@dir, "report.html")
    report = ractorbench("report", @results, "--format", "html", "-o", html)
    assert_equal 0, report.code, report.err
    page = File.read(html)
    assert_match(/try: 8 jobs at every worker count/, page)
    assert_match(/Amdahl fit, serial fraction/, page)
    assert_match(/ideal: speedup = workers/, page)
    dom, console = dump_dom(html)
    assert_empty console, "console messages: #{console.join}"
    assert_match(/8 jobs at every worker count/, dom)
  end

  # seconds_per_item is the check's time per item, handed to the models as a
  # hint: it stays in the results (a run's params and id) but no title shows
  # it, while the user's file and module still name the configuration.
  def test_titles_leave_out_the_internal_seconds_per_item
    runs = runs_in(@results)
    assert(runs.all? { |r| r["params"]["seconds_per_item"].is_a?(Float) }, "every run records the hint")
    assert(runs.all? { |r| r["id"].include?("seconds_per_item=") }, "and its id keeps it")
    refute_includes @try_out, "seconds_per_item"
    %w[text summary markdown bm html].each do |format|
      out = File.join(@dir, "report.#{format}")
      report = ractorbench("report", @results, "--format", format, "-o", out)
      assert_equal 0, report.code, report.err
      text = File.read(out)
      refute_includes text, "seconds_per_item", "the #{format} report shows the internal parameter"
      assert_includes text, (format == "html") ? "module=SlowService" : "try (file=#{ROOT}/examples/slow_service.rb,module=SlowService)"
    end
    assert_equal "try (n=3,x=1)", Ractorbench::Plan::Configuration.title("try", "n=3,seconds_per_item=4.8633e-05,x=1")
    assert_equal "try", Ractorbench::Plan::Configuration.title("try", "seconds_per_item=4.8633e-05")
  end
end
