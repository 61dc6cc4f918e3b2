# frozen_string_literal: true

require "test_helper"
require "chromium_helper"
require "pty"

# The HTML report from a real collection, rendered by headless Chromium:
# charts present, no console errors, a screenshot, and names that are markup
# (a workload called <script>alert(1)</script>, a model that closes an
# attribute, a Ruby called <i>rb</i>) showing as text and injecting nothing.
class HtmlReportTest < Minitest::Test
  include CLIHelper
  include ChromiumHelper

  WORKLOAD = "<script>alert(1)</script>"
  MODEL = "\"><svg onload=alert(2)>"
  RUBY = "<i>rb</i>"

  # One collection serves every test here (it is the slow part).
  def self.collection(test)
    @collection ||= begin
      dir = Dir.mktmpdir
      Minitest.after_run { FileUtils.rm_rf(dir) }
      path = File.join(dir, "hostile.jsonl")
      run = test.ractorbench("run", "--load", test.fixture("hostile_names.rb"), "-w", WORKLOAD, "-m", "serial,threads,#{MODEL}",
        "--workers", "1,2", "--messages", "5", "--reps", "2", "--ruby", "#{RUBY}=#{RbConfig.ruby}", "-o", path)
      test.assert_equal 0, run.code, run.err
      path
    end
  end

  def setup
    @dir = Dir.mktmpdir
    @results = self.class.collection(self)
    @html = File.join(@dir, "report.html")
    report = ractorbench("report", @results, "--format", "html", "-o", @html)
    assert_equal 0, report.code, report.err
    assert_equal "", report.out
  end

  def teardown
    FileUtils.rm_rf(@dir)
  end

  def test_names_from_the_results_file_are_escaped
    html = File.read(@html)
    refute_includes html, WORKLOAD
    refute_includes html, "<svg onload"
    refute_includes html, RUBY
    assert_includes html, "&lt;script&gt;alert(1)&lt;/script&gt;" # shown, as text
    assert_includes html, "&quot;&gt;&lt;svg onload=alert(2)&gt;"
    refute_match(/<script|<link|<img|\bsrc=|@import|url\(/i, html, "the page loads nothing and runs nothing")
  end

  def test_renders_in_chromium_with_charts_and_no_console_errors
    dom, console = dump_dom(@html)
    assert_empty console, "console messages:\n#{console.join}"
    refute_match(/<script/i, dom, "an injected script element reached the DOM")
    assert_equal 5, dom.scan(/<svg\b/).size, "2 time charts + 1 speedup chart + 2 CPU charts"
    assert_match(/W=1, M=5: messages-only time/, dom)
    assert_match(/M=5: speedup over serial/, dom)
    assert_match(/W=2, M=5: CPU utilisation/, dom)
    assert_match(/One Ruby in this collection/, dom)
    assert_includes dom, "&lt;script&gt;alert(1)&lt;/script&gt;"

    png = File.join(@dir, "report.png")
    _, console = screenshot(@html, png)
    assert_empty console
    assert_equal "\x89PNG".b, File.binread(png, 4)
    assert_operator File.size(png), :>, 20_000, "a blank page would compress to almost nothing"
  end

  def test_failures_and_unsupported_models_render_as_notes
    results = File.join(@dir, "failing.jsonl")
    ractorbench("run", "--load", fixture("failing_workloads.rb"), "--load", fixture("unsupported_model.rb"),
      "-w", "raiser,noop", "-m", "serial,threads,teleport", "--reps", "1", "-o", results)
    html = File.join(@dir, "failing.html")
    assert_equal 0, ractorbench("report", results, "--format", "html", "-o", html).code
    dom, console = dump_dom(html)
    assert_empty console
    assert_match(/no successful run \(1 failed\)/, dom)
    assert_match(/not supported on this Ruby: this Ruby has no Teleport/, dom)
    assert_match(/raised ArgumentError: planted failure/, dom)
  end

  def test_one_ruby_against_another
    require "synthetic_results"
    s = SyntheticResults
    results = s.write(File.join(@dir, "rubies.jsonl"), {
      ["prime", "serial", 2, 50, "base"] => s.draws(8, median: 0.010, seed: 1),
      ["prime", "serial", 2, 50, "yjit"] => s.draws(8, median: 0.007, seed: 2),
      ["prime", "ractors", 2, 50, "base"] => s.draws(8, median: 0.006, seed: 3),
      ["prime", "ractors", 2, 50, "yjit"] => s.draws(8, median: 0.006, seed: 4)
    }, jit: ["yjit"])
    html = File.join(@dir, "rubies.html")
    assert_equal 0, ractorbench("report", results, "--format", "html", "-o", html).code
    dom, console = dump_dom(html)
    assert_empty console
    assert_match(/yjit against base: time ratio \(below 1: yjit is faster\)/, dom)
    assert_match(/0\.\d\d× \[0\.\d\d, 0\.\d\d\] faster, n=8\+7/, dom) # yjit's first run kept apart: 7 runs
    assert_match(/~ no detectable change, n=8\+7/, dom)
  end

  def test_html_on_a_terminal_needs_an_output_file
    piped = ractorbench("report", @results, "--format", "html") # a pipe: the page goes there
    assert_equal 0, piped.code
    assert_match(/\A<!DOCTYPE html>/, piped.out)

    output = +""
    PTY.spawn(RbConfig.ruby, EXE, "report", @results, "--format", "html") do |reader, _writer, pid|
      begin
        reader.each_line { |line| output << line }
      rescue Errno::EIO # the terminal closes when the command exits
      end
      Process.wait(pid)
    end
    assert_equal 2, $?.exitstatus
    assert_match(/--format html writes a page for a browser: add -o report.html/, output)
    refute_match(/<html/, output)
  end
end
