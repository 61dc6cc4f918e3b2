# frozen_string_literal: true

require "test_helper"
require "chromium_helper"
require "synthetic_results"
require "cgi"

# The HTML report answers first and reads on a desktop (1280 px) and on a
# phone (390 px): a verdict per workload (or try's recommendation and
# diagnosis) before any chart, warnings folded under one line, no element
# wider than the screen outside a box that scrolls on its own, text at
# least 11 px as drawn, model names never cut, and "too few runs to tell"
# kept apart from "no detectable change". Rendered by headless Chromium;
# the screenshots go to RACTORBENCH_SCREENSHOTS when set (to look at them).
class HtmlLayoutTest < Minitest::Test
  include CLIHelper
  include ChromiumHelper
  include LayoutCheck
  include TempDir

  WIDTHS = [1280, 390].freeze
  S = SyntheticResults

  # A real try of the not-Ractor-safe example: a diagnosis and a sweep of the rest.
  def self.try_results(test)
    @try_results ||= begin
      dir = Dir.mktmpdir
      Minitest.after_run { FileUtils.rm_rf(dir) }
      path = File.join(dir, "unsafe.jsonl")
      result = test.ractorbench("try", "examples/unsafe_cache.rb", "--workers", "1,2", "--reps", "2", "--items", "40",
        "-o", path, chdir: ROOT)
      test.assert_includes [0, 1], result.code, result.out + result.err
      path
    end
  end

  def render(results, name)
    html = File.join(@dir, "#{name}.html")
    report = ractorbench("report", results, "--format", "html", "-o", html)
    assert_equal 0, report.code, report.err
    html
  end

  def screenshots_dir = ENV["RACTORBENCH_SCREENSHOTS"]&.tap { |d| FileUtils.mkdir_p(d) } || @dir

  def assert_readable(html, name, results)
    models = JSON.parse(ractorbench("report", results, "--format", "json").out)["configurations"].map { |c| c["model"] }.uniq
    WIDTHS.each do |width|
      layout = layout_at(html, width)
      assert_empty layout["too_wide"], "#{name} at #{width} px: elements wider than the screen outside a scroll box"
      assert_operator layout["scroll_width"], :<=, layout["viewport"], "#{name} at #{width} px: the page scrolls sideways"
      assert_operator layout["min_text_px"], :>=, 11, "#{name} at #{width} px: text drawn at #{layout["min_text_px"]} px " \
        "(#{layout["min_text"].inspect})"
      layout["labels"].each do |label|
        assert models.any? { |m| label.start_with?(m) }, "#{name}: a chart label starts with a model name, whole: #{label.inspect}"
      end
      png = File.join(screenshots_dir, "#{name}-#{width}.png")
      _, console = screenshot(html, png, size: "#{width},2400")
      assert_empty console
      assert_operator File.size(png), :>, 20_000, "#{png}: a blank page would compress to almost nothing"
    end
  end

  # Boxes in the page's order: the answer comes before the first chart.
  def assert_answer_first(page, marker)
    answer = page.index(marker)
    assert answer, "#{marker} on the page"
    assert_operator answer, :<, page.index("<svg"), "the answer comes before the charts"
  end

  def test_a_collection_answers_first_and_reads_on_a_phone
    FileUtils.cp(File.join(ROOT, "examples", "results", "two_rubies.jsonl"), File.join(@dir, "two_rubies.jsonl"))
    html = render(File.join(@dir, "two_rubies.jsonl"), "two_rubies")
    page = File.read(html)
    assert_answer_first(page, %(<section class="verdicts"))
    %w[fib spawn tarai].each { |w| assert_match(%r{<div class="verdict \w+">\s*<h3>#{w}</h3>}, page, "a verdict box for #{w}") }
    assert_match(/<span class="badge too_few">too few runs to tell<\/span>/, page)
    assert_match(/from 3 runs each/, page)
    assert_match(%r{<details class="warnings">\s*<summary>\d+ warnings about these figures: }, page)
    refute_match(/<ul class="warnings">/, page, "warnings fold under one line")
    assert_readable(html, "two_rubies", File.join(@dir, "two_rubies.jsonl"))
  end

  # A recorded --profile collection: a table per profiled model, on a phone too.
  def test_where_the_time_went_reads_on_a_phone
    results = File.join(@dir, "alloc-1m.jsonl")
    FileUtils.cp(File.join(ROOT, "docs", "results", "issue-26", "alloc-1m.jsonl"), results)
    html = render(results, "profiles")
    page = File.read(html)
    assert_match(%r{<h2 id="profiles">Where the time went</h2>}, page)
    assert_equal 2, page.scan(/<h3>alloc \(iterations=1000000\) W=4 M=1 ruby-[\d.]+: ractors against serial/).size
    assert_readable(html, "profiles", results)
  end

  def test_a_clear_lead_says_by_how_much_and_how_sure
    file = S.write(File.join(@dir, "clear.jsonl"), {
      ["fib", "serial", 2, 4, "ruby"] => S.draws(8, median: 0.200, seed: 1),
      ["fib", "ractors", 2, 4, "ruby"] => S.draws(8, median: 0.105, seed: 2),
      ["fib", "threads", 2, 4, "ruby"] => S.draws(8, median: 0.198, seed: 3)
    })
    page = File.read(render(file, "clear"))
    assert_match(/ractors: 1\.\d\d× serial&#39;s speed \(W=2 M=4; 95% interval 1\.\d\d–\d\.\d\d\)/, page)
    assert_match(/<span class="badge clear">clear<\/span>ahead of (threads|serial) by \d+% \(Mann–Whitney, Holm p (&lt;)?[\d.]+\)/, page)
    assert_match(/from 8 runs each/, page)
  end

  # A 5.5x difference from 3 runs a side is "too few runs to tell", not
  # "no detectable change"; the same distribution from 8 runs a side is.
  def test_too_few_runs_is_not_no_change
    file = S.write(File.join(@dir, "rubies.jsonl"), {
      ["fib", "serial", 1, 4, "base"] => S.draws(3, median: 0.55, seed: 1),
      ["fib", "serial", 1, 4, "yjit"] => S.draws(3, median: 0.10, seed: 2),
      ["tarai", "serial", 1, 4, "base"] => S.draws(8, median: 0.20, seed: 3),
      ["tarai", "serial", 1, 4, "yjit"] => S.draws(8, median: 0.20, seed: 4)
    })
    dom, console = dump_dom(render(file, "rubies"))
    assert_empty console
    assert_match(/0\.1\d× \[?[\d., ]*\]? ?\? too few runs to tell, n=3\+3/, dom)
    assert_match(/~ no detectable change, n=8\+8/, dom)
    refute_match(/~ no detectable change, n=3\+3/, dom)
  end

  def test_a_try_page_carries_the_recommendation_and_the_diagnosis
    results = File.join(@dir, "unsafe.jsonl")
    FileUtils.cp(self.class.try_results(self), results)
    html = render(results, "try_unsafe")
    page = File.read(html)
    assert_answer_first(page, %(<section class="advice" id="recommendation">))
    assert_match(%r{<h2>Will it go faster\? UnsafeCache\.work on 40 items</h2>}, page)
    assert_match(%r{<p class="answer"><strong>(use |stay serial|inconclusive|too few runs to tell)}, page, "the recommendation itself")
    assert_match(%r{<section class="advice problem" id="diagnosis-ractors">\s*<h2>ractors: cannot run this work}, page)
    assert_match(%r{<dt>where</dt><dd>[^<]*unsafe_cache\.rb:16}, page)
    assert_match(%r{<dt>fix</dt><dd>}, page)
    # Three significant digits, whatever the measured value (0.000983, 0.00112).
    refute_match(/<figcaption>[^<]*seconds_per_item=0\.0*[1-9]\d{3,}/, page, "long parameters are shortened in captions")
    assert_readable(html, "try_unsafe", results)
  end

  # `report --by ruby`'s page: a chart per workload and size, a bar per
  # model and Ruby, the table in its own scroll box; it reads on a phone too.
  def test_the_by_ruby_page_reads_on_a_phone
    results = File.join(ROOT, "examples", "results", "two_rubies.jsonl")
    html = File.join(@dir, "by_ruby.html")
    report = ractorbench("report", results, "--by", "ruby", "--format", "html", "-o", html)
    assert_equal 0, report.code, report.err
    page = File.read(html)
    %w[fib tarai].each { |w| assert_includes page, "<figcaption>#{w} W=2 M=1: speedup over serial on each ruby</figcaption>" }
    assert_includes page, "spawn W=2 M=1: messages-only time on each ruby (no serial to divide by)"
    assert_operator page.index("<svg"), :<, page.index("<h2>All figures</h2>")
    assert_readable(html, "by_ruby", results)
  end
end
