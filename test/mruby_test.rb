# frozen_string_literal: true

require "test_helper"
require "csv"
require "ractorbench/analysis/ops_per_second"
require "ractorbench/measure/result_channel"
require "ractorbench/rubies/child_programs"
require_relative "../harness/workloads/ops_per_second"

# mruby as a Ruby under test (issue 27: seed 001 measured it beside Ruby):
# found and probed for what it was built with, its own child for the ops/s
# subjects it has, a "not supported" row naming what it lacks for the rest;
# and, without mruby, CRuby's runs exactly as before. Real mruby (Debian's,
# installed by bin/setup), real children, the real CLI.
class MrubyTest < Minitest::Test
  include CLIHelper
  include TempDir

  MRUBY = ENV.fetch("PATH", "").split(File::PATH_SEPARATOR).map { |dir| File.join(dir, "mruby") }
    .find { |path| File.file?(path) && File.executable?(path) }
  HOST = File.realpath(RbConfig.ruby)
  # What mruby runs here (harness/mruby/subjects.rb); every other subject of the tables is not supported.
  MEASURED = %w[proc-call fiber-resume await-readable await-writable].freeze
  ASYNC = "mruby has no Fiber::Scheduler, and no RubyGems to load async from"

  def need_mruby
    skip "mruby is not installed: bin/setup installs Debian's (apt-get install mruby)" unless MRUBY
  end

  def test_rubies_lists_mruby_with_what_it_was_built_with
    need_mruby
    result = ractorbench("rubies", "--format", "json", env: {"HOME" => @dir})
    assert_equal 0, result.code, result.err
    row = JSON.parse(result.out).find { |r| r["engine"] == "mruby" }
    refute_nil row, result.out
    assert_equal File.realpath(MRUBY), File.realpath(row["path"])
    assert_match(/\Amruby-\d+\.\d+\.\d+\z/, row["name"])
    assert_equal ["none", false], row.values_at("ractor", "fork")
    # Debian's mruby 3.1 is built with mruby-fiber, mruby-io and mruby-time, not mruby-process.
    assert_empty %w[Proc Fiber IO.pipe IO.select Time] - row["has"], row.inspect
    assert_empty ["Thread", "Ractor", "fork", "Marshal", "a monotonic clock"] - row["lacks"], row.inspect
    text = ractorbench("rubies", env: {"HOME" => @dir})
    assert_match(/^\s*#{Regexp.escape(row["name"])}\s+\S+\s+mruby\s+no\s+no\s+none\s+no\s+no\s+PATH/, text.out)
    assert_match(/^#{Regexp.escape(row["name"])} has Proc, Fiber, IO\.pipe, IO\.select, Time.*; lacks .*Thread.*: `ractorbench run --suite concurrently --ruby mruby`/, text.out)
  end

  # The whole suite on mruby and this Ruby: mruby measures the subjects it
  # has, each counted exactly as the harness timed it, and every other is a
  # "not supported" row naming what mruby lacks, never a failure.
  def test_the_concurrently_suite_has_an_mruby_column
    need_mruby
    out = File.join(@dir, "c.jsonl")
    result = ractorbench("run", "--suite", "concurrently", "--ruby", "mruby", "--ruby", "cruby=#{RbConfig.ruby}",
      "--time", "0.01", "--param", "samples=3", "-o", out)
    assert_equal 0, result.code, result.err + result.out
    header = results_lines(out).first
    assert_equal "mruby", header["rubies"].find { |r| r["name"] == "mruby" }.dig("info", "engine")
    runs = runs_in(out)
    assert_equal ["ok"], runs.reject { |r| r["ruby"] == "mruby" }.map { |r| r["status"] }.uniq
    on_mruby = runs.select { |r| r["ruby"] == "mruby" }
    subjects = Ractorbench::Plan::ConcurrentlyTables::ALL.flat_map(&:subjects)
    assert_equal subjects.size, on_mruby.size, "one mruby run a table entry"
    assert_equal MEASURED.sort, on_mruby.select { |r| r["status"] == "ok" }.map { |r| r.dig("params", "subject") }.uniq.sort
    on_mruby.select { |r| r["status"] == "ok" }.each do |run|
      ops = run.fetch("ops")
      batches = ops["warmup"][0] + ops["samples"].sum(&:first)
      assert_equal batches * 100, ops["executions"], run["id"]
      assert_equal ops["executions"], ops["counted"], "#{run["id"]}: the subject did not run as often as timed"
      assert_operator ops["counted"], :>=, 3 * 100, run["id"]
      assert_equal 3, ops["loop_samples"].size
      assert_match(/Time\.now|clock_gettime/, ops["clock"])
    end
    reasons = on_mruby.reject { |r| r["status"] == "ok" }.to_h { |r| [r.dig("params", "subject"), [r["status"], r["reason"]]] }
    (subjects - MEASURED).each do |subject|
      status, reason = reasons.fetch(subject)
      assert_equal "unsupported", status, "#{subject}: #{reason}"
      expected = {"thread-join" => "Thread", "ractor-value" => "Ractor", "fork-wait" => "fork"}.fetch(subject) { ASYNC }
      assert_includes reason, "not supported on this Ruby: mruby has no #{expected.delete_prefix("mruby has no ")}", subject
    end

    # The tables put mruby's line under each subject, beside this Ruby's.
    lines = result.out.lines.drop_while { |l| l != "proc.call\n" }.first(3).join
    # (A net rate lost in the empty loop's noise on a busy machine is an answer too.)
    assert_match(/\Aproc\.call\n(  proc \{ \}\.call +serial +(mruby|cruby) +3 +(\S+ ± \d+%|within the loop's noise)\n){2}\z/, lines)
    assert_equal %w[cruby mruby], lines.scan(/serial +(\w+)/).flatten.sort
    assert_includes result.out.lines, "conproc-call, conproc-call-nonblock, conproc-call-detached, conproc-call-and-forget on mruby: skipped: #{ASYNC}\n"
    assert_match(/^thread-join on mruby: skipped: mruby has no Thread$/, result.out)
    assert_match(/^mruby timed with Time\.now/, result.out)
    markdown = ractorbench("report", out, "--format", "markdown").out
    assert_match(/^\| proc\.call \| proc \{ \}\.call \| serial \| mruby \| 3 \| \d+ executions in [\d.]+ seconds \| ([\d,]+ ± [\d,]+ \| [\d.]+%|within the loop's noise \| -) \|$/, markdown)
    assert_match(/^\| \(none: a thread\) \| Thread\.new \{ \}\.join \| threads \| mruby \| skipped: mruby has no Thread \|/, markdown)
    text = ractorbench("report", out, "--format", "text").out
    assert_match(/\| await_readable +\| Fiber\.yield a pipe holding data to a loop; IO\.select\(\[r\]\), resume \| fibers +\| mruby \| +3 \|/, text)
    json = JSON.parse(ractorbench("report", out, "--format", "json").out).fetch("ops_per_second")
    fiber = json.find { |r| r["ruby"] == "mruby" && r["subject"] == "fiber-resume" }
    assert_equal [1, 3], [fiber["runs"], fiber["samples"]]
    assert_equal "mruby has no Ractor", json.find { |r| r["ruby"] == "mruby" && r["subject"] == "ractor-value" }["unsupported"]
    csv = CSV.parse(ractorbench("report", out, "--format", "csv").out, headers: true)
    proc_call = csv.find { |r| r["ruby"] == "mruby" && r["ops_subject"] == "proc-call" }
    assert_equal ["ops-per-second", "3"], [proc_call["workload"], proc_call["ops_samples"]]
    assert_operator Float(proc_call["ops_per_second_median"]), :>, 0
    assert_equal "mruby has no Thread", csv.find { |r| r["ruby"] == "mruby" && r["ops_subject"] == "thread-join" }["unsupported"]
    html = File.join(@dir, "ops.html")
    assert_equal 0, ractorbench("report", out, "--format", "html", "-o", html).code
    page = File.read(html)
    assert_match(%r{<h2>Operations per second</h2>}, page)
    assert_match(%r{<td>proc \{ \}\.call</td><td>serial</td><td>mruby</td><td class="num">3</td>}, page)
    assert_match(%r{<td colspan="4" class="note">skipped: mruby has no Thread</td>}, page)
  end

  def test_what_the_mruby_child_cannot_run_is_not_supported_never_failed
    need_mruby
    out = File.join(@dir, "n.jsonl")
    result = ractorbench("run", "-w", "noop,ops-per-second", "-m", "serial,threads", "--param", "subject=proc-call",
      "--time", "0.01", "--reps", "1", "--ruby", "mruby", "-o", out)
    assert_equal 0, result.code, result.err
    runs = runs_in(out).to_h { |r| [[r["workload"], r["model"]], r] }
    assert_equal %w[ok unsupported unsupported unsupported], runs.values.map { |r| r["status"] }.sort
    assert_match(/\Anot supported on this Ruby: mruby runs only the ops-per-second subjects here: the noop workload needs ractorbench's CRuby harness/,
      runs[%w[noop serial]]["reason"])
    assert_equal "not supported on this Ruby: subject proc-call measures the serial model, not threads", runs[%w[ops-per-second threads]]["reason"]
    # The workload's default samples, declared in harness/workloads/ops_per_second.rb only, reach a child that cannot load it.
    assert_equal Ractorbench::Workloads::OpsPerSecond.default_params[:samples], runs[%w[ops-per-second serial]].dig("ops", "samples").size
    assert_usage_error(ractorbench("try", File.join(ROOT, "examples", "string_crunch.rb"), "--ruby", "mruby"),
      /--ruby mruby: mruby cannot run try \(it has no require, Marshal or fork\)/)
  end

  # Marshal's format written by mruby's channel is read by the driver's
  # decoder, and the spec the driver writes is read by mruby's: one
  # channel, both ways, for every kind of plain value.
  def test_the_mruby_channel_speaks_the_drivers_format_both_ways
    need_mruby
    spec = {"s" => "é text", "i" => [0, 1, -1, 122, 123, -123, -124, 255, 256, -256, 65_536, 2**30 - 1, 2**30, -(2**30) - 1, 2**40, 2**62],
            "f" => [0.5, 0.1, -2.5e-7, 1e300], "n" => nil, "t" => true, "x" => false, "sym" => :symbol, "h" => {"a" => {"b" => [[]]}}}
    script = "c = Ractorbench::Mruby::Channel; s = c.spec; c.write('spec' => s, 'seconds' => [c::Seconds.new(12_499), c::Seconds.new(-1_500), " \
      "c::Seconds.new(3_000_000)], 'big' => 4_611_686_018_427_387_903 * 2 + 1, 'object' => Object.new, 'depth' => [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]])"
    File.binwrite(File.join(@dir, "spec"), Marshal.dump(spec))
    channel_r, channel_w = IO.pipe
    pid = Process.spawn(MRUBY, "-r", File.join(Ractorbench::HARNESS_DIR, "mruby", "channel.rb"), "-e", script,
      :in => File.join(@dir, "spec"), :err => File.join(@dir, "err"), 3 => channel_w)
    channel_w.close
    bytes = channel_r.read
    assert Process.wait2(pid).last.success?, File.read(File.join(@dir, "err"))
    records, problem = Ractorbench::Measure::ResultChannel.decode(bytes)
    assert_nil problem
    record = records.fetch(0)
    assert_equal spec.merge("sym" => "symbol"), record["spec"]
    assert_equal [0.012499, -0.0015, 3.0], record["seconds"]
    assert_equal 2**63 - 1, record["big"]
    assert_match(/\A#<Object/, record["object"])
    # Nested deeper than the channel's limit, the rest travels as its inspect.
    assert_kind_of String, record["depth"].flatten.first
  end

  # Without mruby, discovery finds what it always found and CRuby's runs
  # start only CRuby's programs: one probe a Ruby, harness/child.rb a run.
  def test_without_mruby_nothing_changes_for_cruby
    bin = File.join(@dir, "bin")
    log = File.join(@dir, "launches.log")
    FileUtils.mkdir_p(bin)
    File.write(File.join(bin, "ruby"), "#!/bin/sh\necho \"$@\" >> #{log}\nexec #{HOST} \"$@\"\n")
    File.chmod(0o755, File.join(bin, "ruby"))
    env = {"PATH" => bin, "HOME" => @dir}
    found = Ractorbench::Rubies::Discovery.new(env: env, home: @dir).candidates.map(&:first)
    refute(found.any? { |path| File.basename(path) == "mruby" }, found.inspect)
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "--ruby", File.join(bin, "ruby"), "-w", "ops-per-second", "-m", "serial", "--param", "subject=proc-call",
      "--time", "0.01", "--param", "samples=1", "--reps", "1", "-o", out, env: env)
    assert_equal 0, result.code, result.err
    assert_equal ["ok"], runs_in(out).map { |r| r["status"] }
    launches = File.readlines(log).map { |l| File.basename(l.split.last) }
    assert_equal %w[probe.rb child.rb], launches, "a CRuby is probed once and runs CRuby's child"
    assert_equal Ractorbench::Rubies::ChildPrograms::CRUBY, Ractorbench::Rubies::ChildPrograms.for(results_lines(out).first["rubies"].first["info"])
    rows = JSON.parse(ractorbench("rubies", "--format", "json", env: env).out)
    assert_equal ["ruby"], rows.map { |r| r["engine"] }.uniq
    assert_equal %w[description engine fork found_by mn_threads name path ractor version yjit zjit], rows.first.keys.sort
    assert_usage_error(ractorbench("run", "-w", "noop", "-m", "serial", "--ruby", "mruby", "-o", File.join(@dir, "m.jsonl"), env: env),
      /--ruby mruby: no such Ruby found/)
  end
end
