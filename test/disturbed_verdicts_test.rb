# frozen_string_literal: true

require "test_helper"
require "synthetic_results"

# `compare` (files, --by ruby, --by machine) and `report --by` leave runs
# other programs (or steal) disturbed out as `report` does, never claim a
# change from them, and never pass or fail --fail-above on them: a
# configuration with too many is inconclusive, and a comparison with
# nothing left to judge exits 3. The disturbed copies are real results
# files whose run lines are rewritten as a busy machine would have
# recorded them (the fields Measure::Interference writes).
class DisturbedVerdictsTest < Minitest::Test
  include CLIHelper
  include TempDir

  S = SyntheticResults
  BEFORE = File.join(ROOT, "examples", "results", "nap_before.jsonl")
  AFTER = File.join(ROOT, "examples", "results", "nap_after.jsonl") # the same workload, 20% slower
  SERIAL = ["nap", "serial", 2, 5, "ruby"].freeze
  THREADS = ["nap", "threads", 2, 5, "ruby"].freeze
  # Others kept most of a core busy (0.9 of the run's wall time), or the
  # hypervisor stole 60% of it: either makes Interference call a run disturbed.
  BUSY = {others: ->(r) { {"others_cpu" => (r["whole_time"] * 0.9).round(3), "steal" => 0.0, "disturbed" => true} },
          steal: ->(r) { {"others_cpu" => 0.0, "steal" => (r["whole_time"] * 0.6).round(3), "disturbed" => true} }}.freeze
  QUIET = {"others_cpu" => 0.0, "steal" => 0.0, "disturbed" => false}.freeze

  # A copy of path whose runs for which the block is true (every run
  # without a block) were disturbed by cause, the others quiet.
  def disturbed_copy(path, name, cause: :others)
    lines = File.readlines(path).map do |line|
      r = JSON.parse(line)
      next line unless r["type"] == "run"

      busy = block_given? ? yield(r) : true
      JSON.generate(r.merge(busy ? BUSY.fetch(cause).call(r) : QUIET)) + "\n"
    end
    File.join(@dir, name).tap { |out| File.write(out, lines.join) }
  end

  # Output for people wraps at 100 columns under a hanging indent; joined
  # again (tables start their lines with | or +), a sentence is matched whole.
  def flat(result) = result.tap { |r| [r.out, r.err].each { |text| text.gsub!(/\n +(?=\S)/, " ") } }

  def compare(*args) = flat(ractorbench("compare", *args, env: {"COLUMNS" => "200", "NO_COLOR" => "1"}))

  def report(*args) = flat(ractorbench("report", *args, env: {"COLUMNS" => "200", "NO_COLOR" => "1"}))

  def compare_json(*args)
    result = compare(*args, "--format", "json")
    [result, JSON.parse(result.out)]
  end

  def test_compare_against_a_copy_with_every_run_disturbed_says_so_and_reports_no_regression
    clean = compare(BEFORE, AFTER, "--fail-above", "10")
    assert_equal 1, clean.code, "the planted 20% slowdown is a regression while the runs are quiet"
    assert_match(/REGRESSION nap\/serial/, clean.err)

    after = disturbed_copy(AFTER, "nap_after_busy.jsonl")
    result = compare(BEFORE, after, "--fail-above", "10")
    assert_equal 3, result.code, result.err
    refute_match(/REGRESSION/, result.err)
    assert_match(/INCONCLUSIVE: too many disturbed runs to judge any configuration, so --fail-above 10 neither passes nor fails; exit 3/, result.err)
    assert_match(/^INCONCLUSIVE: the machine was busy: 16 of 16 runs of nap_after_busy\.jsonl were disturbed by other programs, so no verdict is given; close them, or run again with --wait-quiet$/, result.out)
    assert_match(/WARNING: nap_after_busy\.jsonl: 16 of 16 runs were disturbed by other programs/, result.out)
    %w[serial threads].each do |model|
      assert_match(/ #{model} +\S+ ±\d+% +\S+ ±\d+% +inconclusive +- +B 8 of 8 disturbed: not tested; n 8\+8/, result.out)
    end
    refute_match(/geomean/, result.out, "no change is averaged from disturbed runs")
    refute_match(/[+-]\d+\.\d%/, result.out, "no percentage change is printed")

    assert_equal 3, compare(BEFORE, after).code, "inconclusive without --fail-above too"

    json_result, data = compare_json(BEFORE, after, "--fail-above", "10")
    assert_equal 3, json_result.code
    assert_equal "disturbed", data["inconclusive"]["reason"]
    assert_match(/\AINCONCLUSIVE: the machine was busy: 16 of 16 runs/, data["inconclusive"]["message"])
    assert_equal 0, data["comparisons"], "nothing was tested, so Holm counts nothing"
    assert_equal [[16, nil, false], [16, 16, true]], data["sides"].map { |s| s.values_at("runs", "disturbed_runs", "too_disturbed") }
    rows = data["against"].first["rows"]
    assert_equal 2, rows.size
    rows.each do |r|
      assert_equal "disturbed", r["verdict"]
      assert_equal [nil, nil, nil, nil], [r["p"], r["p_holm"], r["ratio_ci"]["low"], r["ratio_ci"]["high"]]
      assert_equal({"runs" => 8, "disturbed_runs" => 8, "too_disturbed" => true}, r["disturbed"]["b"])
      assert_equal false, r["disturbed"]["a"]["too_disturbed"]
    end
    assert_nil data["against"].first["geomean"]

    md = compare(BEFORE, after, "--format", "markdown")
    assert_equal 3, md.code
    assert_match(/\| inconclusive: B 8 of 8 disturbed \|/, md.out)
    assert_match(/^\*\*INCONCLUSIVE: the machine was busy: 16 of 16 runs/, md.out)

    help = ractorbench("compare", "--help")
    assert_match(/^\s+3\s+inconclusive: too many disturbed runs to judge anything; run again on a quiet machine$/, help.out)
  end

  # Steal is the host's other virtual machines: the advice says closing
  # programs here will not help. The baseline side disturbed counts too.
  def test_a_baseline_disturbed_by_steal_is_inconclusive_with_its_own_advice
    before = disturbed_copy(BEFORE, "nap_before_stolen.jsonl", cause: :steal)
    result = compare(before, AFTER, "--fail-above", "10")
    assert_equal 3, result.code, result.err
    refute_match(/REGRESSION/, result.err)
    assert_match(/16 of 16 runs of nap_before_stolen\.jsonl were disturbed by the hypervisor taking CPU from this VM \(steal\), so no verdict is given; run again when the host is quieter, or on a machine of your own \(closing programs here will not help\)/, result.out)
    assert_match(/inconclusive +- +A 8 of 8 disturbed: not tested/, result.out)
  end

  # Some runs disturbed: the figures come from the others (n counts them),
  # a caution counts them, and a configuration left with too few clean runs
  # is inconclusive and never fails --fail-above, even though its clean
  # runs are slower.
  def test_some_disturbed_runs_are_left_out_and_a_configuration_with_too_many_is_not_judged
    before = S.write(File.join(@dir, "before.jsonl"), {SERIAL => S.draws(10, median: 0.100, seed: 1),
                                                       THREADS => S.draws(10, median: 0.050, seed: 2)})
    # After: serial 20% slower, threads 50% slower; the disturbed runs are
    # far faster, so any of them counted would move the medians.
    serial_after = S.draws(10, median: 0.120, seed: 3)
    threads_after = S.draws(10, median: 0.075, seed: 4)
    disturbed_reps = {"serial" => 1..3, "threads" => 1..6}
    raw = S.write(File.join(@dir, "raw.jsonl"), {SERIAL => serial_after.each_with_index.map { |t, i| (i < 3) ? 0.01 : t },
                                                THREADS => threads_after.each_with_index.map { |t, i| (i < 6) ? 0.01 : t }})
    after = disturbed_copy(raw, "after.jsonl") { |r| disturbed_reps.fetch(r["model"]).cover?(r["rep"]) }

    result, data = compare_json(before, after, "--fail-above", "10")
    assert_equal 1, result.code, result.err
    assert_match(%r{REGRESSION nap/serial/w2/m5/ruby}, result.err)
    refute_match(%r{REGRESSION nap/threads}, result.err, "threads' 4 clean runs of 10 are not enough to judge")
    assert_match(%r{--fail-above 10: 1 configuration not checked, too many of its runs disturbed: nap/threads/w2/m5/ruby \(after\.jsonl: 6 of 10 runs disturbed\)}, result.err)
    assert_nil data["inconclusive"]
    assert_equal [20, 9, false], data["sides"].last.values_at("runs", "disturbed_runs", "too_disturbed")
    serial, threads = data["against"].first["rows"].partition { |r| r["key"][1] == "serial" }.map(&:first)
    assert_equal "slower", serial["verdict"]
    assert_equal 7, serial["b"]["samples"], "the 3 disturbed runs stay out"
    clean = serial_after.drop(3).sort
    assert_in_delta clean[3], serial["b"]["median"], 1e-12, "the median of the 7 clean runs"
    assert_equal "disturbed", threads["verdict"]
    assert_equal 4, threads["b"]["samples"]
    assert_equal 1, data["comparisons"], "only serial was tested"
    assert_equal 1, data["against"].first["geomean"]["count"]
    assert(data["warnings"].any? { |w| w.include?("1 configuration is inconclusive, most runs of a side disturbed") })
    assert(data["warnings"].any? { |w| w.start_with?("after.jsonl: 9 of 20 runs were disturbed by other programs") })

    text = compare(before, after, "--fail-above", "25")
    assert_equal 0, text.code, "serial is within 25%; threads is not judged, so it cannot fail the gate"
    assert_match(/ threads .* inconclusive +- +B 6 of 10 disturbed: not tested; n 10\+4/, text.out)
    assert_match(/ serial .* n 10\+7/, text.out)
    assert_match(/WARNING: 1 configuration is inconclusive, most runs of a side disturbed, so no change is claimed \(nor counted by --fail-above\): nap\/threads\/w2\/m5\/ruby \(after\.jsonl: 6 of 10 runs disturbed\)/, text.out)
    assert_match(/1 configuration not checked/, text.err)
  end

  # The issue's case: `compare --by ruby` of a collection every run of
  # which was disturbed, and `report --by ruby` of it, in every format.
  def test_by_ruby_of_a_fully_disturbed_collection_is_inconclusive_in_every_format
    two = S.two_rubies(File.join(@dir, "two.jsonl"))
    assert_equal "faster", compare_json(two, "--by", "ruby").last["against"].first["rows"].first["verdict"], "quiet: yjit's serial is faster"
    busy = disturbed_copy(two, "busy.jsonl")

    result, data = compare_json(busy, "--by", "ruby")
    assert_equal 3, result.code, result.err
    assert_equal %w[disturbed disturbed], data["against"].first["rows"].map { |r| r["verdict"] }
    assert_match(/16 of 16 runs of ruby and 16 of 16 runs of yjit were disturbed by other programs/, data["inconclusive"]["message"])

    text = report(busy, "--by", "ruby")
    assert_equal 0, text.code, "report's exit codes are unchanged: the report is written"
    assert_equal 4, text.out.scan(%r{n=8 \(8/8 disturbed\)}).size, text.out
    assert_match(%r{\(6/8 disturbed\): 6 of that configuration's 8 runs on that side were disturbed}, text.out)
    assert_match(/WARNING: busy\.jsonl: 32 of 32 runs were disturbed by other programs/, text.out)
    assert_match(/^INCONCLUSIVE: the machine was busy: 16 of 16 runs of ruby and 16 of 16 runs of yjit were disturbed/, text.out)

    md = ractorbench("report", busy, "--by", "ruby", "--format", "markdown")
    assert_match(%r{\| 0\.\d\d× \[[\d.]+, [\d.]+\] n=8 \(8/8 disturbed\) \|}, md.out)
    assert_match(/^\*\*INCONCLUSIVE: the machine was busy/, md.out)
    assert_match(/^> \*\*Warning:\*\* busy\.jsonl: 32 of 32 runs were disturbed/, md.out)

    json = JSON.parse(ractorbench("report", busy, "--by", "ruby", "--format", "json").out)
    assert_equal "disturbed", json["inconclusive"]["reason"]
    assert_equal [[16, 16, true]] * 2, json["sides"].map { |s| s.values_at("runs", "disturbed_runs", "too_disturbed") }
    threads = json["panels"].first["models"].find { |m| m["model"] == "threads" }
    assert_equal({"runs" => 8, "disturbed_runs" => 8, "too_disturbed" => true}, threads["disturbed"]["yjit"])
    assert_equal 1, json["warnings"].size

    page = File.join(@dir, "by_ruby.html")
    assert_equal 0, ractorbench("report", busy, "--by", "ruby", "--format", "html", "-o", page).code
    html = File.read(page)
    assert_match(/<div class="verdict inconclusive">\s*<h3>No verdict<\/h3>\s*<p class="answer">Inconclusive: the machine was busy/, html)
    bars = html.scan(/<rect[^>]*class="bar"[^>]*>/)
    assert_equal 2, bars.size
    assert bars.all? { |b| b.include?(%(fill="#b0b0b0")) }, "a bar of disturbed runs is grey"

    # The plain report's page compares its Rubies too (compare's verdicts).
    full = File.join(@dir, "report.html")
    assert_equal 0, ractorbench("report", busy, "--format", "html", "-o", full).code
    page = File.read(full)
    assert_equal 2, page.scan(/\d\.\d\d× inconclusive: most runs disturbed, n=8\+8/).uniq.size, "serial's and threads' ratio"
    refute_match(/× (?:\[[\d.]+, [\d.]+\] )?(?:faster|slower),/, page)
  end

  # Some runs of one side disturbed: report --by counts them in a warning
  # and leaves them out of n; no cell is marked, nothing is inconclusive.
  def test_report_by_ruby_leaves_a_few_disturbed_runs_out_with_a_warning
    two = S.write(File.join(@dir, "two.jsonl"), {
      ["prime", "serial", 2, 50, "ruby"] => S.draws(8, median: 0.010, seed: 11),
      ["prime", "serial", 2, 50, "yjit"] => S.draws(8, median: 0.008, seed: 12)
    })
    some = disturbed_copy(two, "some.jsonl", cause: :steal) { |r| r["ruby"] == "yjit" && r["rep"] <= 2 }
    json = JSON.parse(ractorbench("report", some, "--by", "ruby", "--format", "json").out)
    assert_nil json["inconclusive"]
    serial = json["panels"].first["models"].first
    assert_equal [8, 6], %w[ruby yjit].map { |ruby| serial["sides"][ruby]["samples"] }
    assert_equal [false, false], %w[ruby yjit].map { |ruby| serial["disturbed"][ruby]["too_disturbed"] }
    text = report(some, "--by", "ruby")
    assert_match(/WARNING: some\.jsonl: 2 of 16 runs were disturbed by the hypervisor \(steal: .*\) and are left out of the figures/, text.out)
    refute_match(/disturbed\)|INCONCLUSIVE/, text.out)
  end

  # A merged file whose second machine was busy throughout: compare --by
  # machine is inconclusive, report --by machine says so.
  def test_by_machine_with_a_busy_machine_is_inconclusive
    laptop = S.write(File.join(@dir, "laptop.jsonl"), {SERIAL => S.draws(8, median: 0.100, seed: 1),
                                                       THREADS => S.draws(8, median: 0.050, seed: 2)})
    lines = File.readlines(disturbed_copy(laptop, "server.jsonl"))
    header = JSON.parse(lines.first)
    header["machine"] = header["machine"].merge("hostname" => "server", "cpu_model" => "Another CPU")
    server = File.join(@dir, "server.jsonl")
    File.write(server, ([JSON.generate(header) + "\n"] + lines.drop(1)).join)
    merged = File.join(@dir, "all.jsonl")
    assert_equal 0, ractorbench("merge", laptop, server, "-o", merged).code

    result, data = compare_json(merged, "--by", "machine", "--fail-above", "0")
    assert_equal 3, result.code, result.err
    assert_match(/16 of 16 runs of server were disturbed by other programs/, data["inconclusive"]["message"])
    text = report(merged, "--by", "machine")
    assert_match(/WARNING: server: 16 of 16 runs were disturbed/, text.out)
    assert_match(/^INCONCLUSIVE: the machine was busy: 16 of 16 runs of server were disturbed/, text.out)
  end
end
