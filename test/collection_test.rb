# frozen_string_literal: true

require "test_helper"
require "pty"
require "stringio"
require_relative "../examples/json_parse"

# What a collection records and prints: the header, rubies, the seeded order,
# unsupported models, the suite, and the progress line on a terminal only;
# and that the commands and the Ruby API are one Collection called with
# keywords: the same plan, figures and checks on the same seed, no command
# line in between.
class CollectionTest < Minitest::Test
  include CLIHelper

  include TempDir

  def test_header_records_command_seed_machine_and_rubies
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", "noop", "-m", "serial,threads", "--reps", "2", "--seed", "42",
      "--ruby", "plain=#{RbConfig.ruby}", "--ruby", "tuned=#{RbConfig.ruby} --disable-did_you_mean",
      "-o", out, env: {"RUBY_GC_HEAP_GROWTH_FACTOR" => "1.5"})
    assert_equal 0, result.code, result.err
    assert_match(/seed 42/, result.err)
    header = results_lines(out).first
    assert_equal "ractorbench", header["tool"]
    assert_equal Ractorbench::VERSION, header["version"]
    assert_match(/\Aractorbench run -w noop .*--seed 42/, header["command"])
    assert_equal 42, header["seed"]
    machine = header["machine"]
    %w[cpu_model cores usable_cores load_average os].each { |k| refute_nil machine[k], k }
    assert_operator machine["usable_cores"], :<=, machine["cores"]
    plain, tuned = header["rubies"]
    assert_equal "plain", plain["name"]
    assert_equal RUBY_DESCRIPTION, plain["info"]["description"]
    assert_equal ["--disable-did_you_mean"], tuned["argv"].drop(1)
    assert_equal "1.5", tuned["info"]["ruby_env"]["RUBY_GC_HEAP_GROWTH_FACTOR"]
    assert_equal %w[plain tuned], runs_in(out).map { |r| r["ruby"] }.uniq.sort
    assert_equal 8, runs_in(out).size
  end

  # Where a run's time went besides the measured part (issue 14): the
  # child's own spans before and after it nest inside the driver's whole
  # time, whatever the machine's speed.
  def test_each_run_records_its_setup_and_finish_inside_its_whole_time
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", "prime", "-m", "serial,processes", "--workers", "2", "--messages", "20", "--reps", "2", "-o", out)
    assert_equal 0, result.code, result.err
    runs = runs_in(out)
    assert_equal 4, runs.size
    runs.each do |run|
      spans = run.values_at("setup_time", "messages_time", "finish_time")
      assert spans.all? { |s| s.is_a?(Float) && s.positive? }, run.inspect
      assert_operator spans.sum, :<=, run["whole_time"], run.inspect
    end
  end

  def test_the_seed_replays_the_order_and_each_repetition_holds_every_arm_once
    orders = Array.new(2) do |i|
      out = File.join(@dir, "r#{i}.jsonl")
      ractorbench("run", "-w", "noop", "-m", "serial,threads,ractors", "--workers", "1,2", "--messages", "1",
        "--reps", "2", "--seed", "1234", "-o", out)
      runs_in(out).map { |r| r["id"] }
    end
    assert_equal orders[0], orders[1]
    first_block, second_block = orders[0].each_slice(6).to_a
    assert_equal first_block.map { |id| id.sub("rep1", "") }.sort, second_block.map { |id| id.sub("rep2", "") }.sort
    refute_equal first_block.map { |id| id.sub("rep1", "") }, second_block.map { |id| id.sub("rep2", "") },
      "both repetitions ran in the same order; the shuffle is not happening"
  end

  def test_a_model_this_ruby_lacks_is_a_row_not_an_error
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "--load", fixture("unsupported_model.rb"), "-w", "noop", "-m", "serial,teleport",
      "--reps", "1", "-o", out)
    assert_equal 0, result.code, result.err
    assert_match(/teleport .*not supported on this Ruby: this Ruby has no Teleport/, result.out)
    assert_match(%r{1/2 runs succeeded, 0 failed, 1 not supported}, result.out)
    assert_equal "unsupported", runs_in(out).find { |r| r["model"] == "teleport" }["status"]
  end

  # The closing table follows the same first-run policy as `report`.
  def test_first_run_policy_of_the_closing_table
    skip "this Ruby has no YJIT to count as a JIT" unless defined?(RubyVM::YJIT)
    # n as the analysis counts it: a run another program disturbed stays out
    # (unless all were), and the first run per the policy.
    counted = lambda do |*extra, without_first:|
      out = File.join(@dir, "fr#{extra.size}.jsonl")
      result = ractorbench("run", "-w", "noop", "-m", "serial", "--reps", "3", "--yjit", "on", *extra, "-o", out)
      assert_equal 0, result.code, result.err
      runs = runs_in(out).reject { |r| without_first && r["rep"] == 1 }
      calm = runs.reject { |r| r["disturbed"] }
      [result.out[/^noop .*$/].split(/\s{2,}/)[3], (calm.empty? ? runs : calm).size.to_s] # the table's n, the file's
    end
    shown, expected = counted.call(without_first: true)
    assert_equal expected, shown, "auto leaves a JIT Ruby's first run out"
    assert_operator expected.to_i, :<=, 2
    shown, expected = counted.call("--first-run", "include", without_first: false)
    assert_equal expected, shown
    assert_usage_error ractorbench("run", "--first-run", "sometimes"), /--first-run must be one of auto, include, exclude/
  end

  def test_basic_benchmarking_suite_runs_the_seed_setup_scaled_down
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "--suite", "basic-benchmarking", "--scale", "0.01", "--reps", "1", "-o", out)
    assert_equal 0, result.code, result.err
    runs = runs_in(out)
    assert_equal [[5, 20], [10, 10]], runs.map { |r| [r["workers"], r["messages"]] }.uniq.sort
    assert_equal %w[processes ractors ractors-pipeless serial threads], runs.map { |r| r["model"] }.uniq.sort
    assert_equal ["d56cHyl4i8zXBpYbRdxZ3f2zOaU="], runs.map { |r| r["digest"] }.uniq # 100 chunks, the seed's value
    assert_match(%r{10/10 runs succeeded}, result.out)
  end

  def test_progress_line_on_a_terminal_only
    out = File.join(@dir, "tty.jsonl")
    text = +""
    PTY.spawn(RbConfig.ruby, EXE, "run", "-w", "noop", "-m", "serial", "--reps", "3", "-o", out) do |r, _w, pid|
      begin
        r.each_char { |c| text << c }
      rescue Errno::EIO
        nil # the terminal closes when the child exits
      end
      Process.wait(pid)
    end
    assert_match(%r{3/3 \|}, text, "no progress bar on a terminal")
    assert_match(/ETA|Time/, text)

    piped = ractorbench("run", "-w", "noop", "-m", "serial", "--reps", "3", "-o", File.join(@dir, "pipe.jsonl"))
    refute_match(%r{\d/3 \|}, piped.err, "a progress bar leaked into non-terminal output")
  end

  # tarai computes the same value whoever runs it: two collections of one
  # plan agree on everything but timings (and the runs other programs
  # disturbed, which differ from one collection to the next).
  TARAI = {workloads: %w[tarai], models: %w[serial threads ractors], params: {"x" => 6}, workers: [1, 2], messages: [2],
           reps: 2, seed: 42}.freeze

  def tarai_cli(path)
    ractorbench("run", "-w", "tarai", "-m", "serial,threads,ractors", "--param", "x=6", "--workers", "1,2",
      "--messages", "2", "--reps", "2", "--seed", "42", "-o", path)
  end

  # Everything two collections of one plan on one seed must share: the
  # plan, the runs' ids in the order run, each run's outcome and digest.
  def figures(path)
    header, *lines = results_lines(path)
    runs = lines.select { |r| r["type"] == "run" }
    {seed: header["seed"], plan: header["plan"], rubies: header["rubies"].map { |r| [r["name"], r["argv"]] },
     ids: runs.map { |r| r["id"] }, outcomes: runs.map { |r| r.values_at("status", "digest", "results") },
     per_configuration: runs.group_by { |r| r.values_at("model", "workers", "messages") }.transform_values(&:size)}
  end

  def test_the_api_is_the_collection_called_with_keywords_and_gives_the_clis_figures
    cli_path = File.join(@dir, "cli.jsonl")
    cli = tarai_cli(cli_path)
    assert_equal 0, cli.code, cli.err
    api = Ractorbench.run(**TARAI, output: File.join(@dir, "api.jsonl"))

    # No command line was built or parsed: the header records the Ruby call.
    commands = [cli_path, api.path].map { |path| results_lines(path).first["command"] }
    assert_match(/\Aractorbench run -w tarai /, commands.first)
    assert_match(/\ARactorbench\.run\(workloads: \["tarai"\], models: \["serial", "threads", "ractors"\], /, commands.last)
    assert_includes commands.last, "workers: [1, 2], messages: [2], "
    assert_includes commands.last, "reps: 2, seed: 42, output: #{api.path.inspect})"

    assert_equal figures(cli_path), figures(api.path)
    assert_equal 12, figures(api.path)[:ids].size, "3 models x 2 worker counts x 2 repetitions"
    # The same checks: every run succeeded and every model computed serial's results.
    assert_equal [0, 0], [api.exit_code, cli.code]
    assert api.analysis.digest_check.agree?
    assert_equal [12, 0, 0], [api.analysis.succeeded, api.analysis.failed, api.analysis.unsupported]
    assert_match(/Digests agree/, api.text)
    assert_match(/Digests agree/, cli.out)
  end

  # The Collection itself, as the commands call it: the plan as entries,
  # the Rubies as targets, and back a Finish with the file, the analysis,
  # the runs by outcome and run's exit status.
  def test_a_collection_from_keywords_plans_and_records_what_the_cli_does
    cli_path = File.join(@dir, "cli.jsonl")
    assert_equal 0, tarai_cli(cli_path).code
    entries = [Ractorbench::Plan::Entry.new(workload: "tarai", models: %w[serial threads ractors],
      configs: [[1, 2], [2, 2]], params: {"x" => 6})]
    log = StringIO.new
    finish = Ractorbench::Collection.new(catalog: Ractorbench::Plan::Catalog.default, entries: entries,
      rubies: [Ractorbench::Rubies::Target.current], reps: 2, seed: 42, command: "a test", output: File.join(@dir, "c.jsonl"),
      progress: log).call
    assert_equal File.join(@dir, "c.jsonl"), finish.path
    assert_equal [12, 0, 0, 0], [finish.ok, finish.failed, finish.unsupported, finish.exit_status]
    assert_equal figures(cli_path), figures(finish.path)
    header = results_lines(finish.path).first
    assert_equal "a test", header["command"]
    assert_equal 2, header["reps"], "run's header records its repetitions"
    assert_equal results_lines(cli_path).first.keys, header.keys, "one header builder: the same fields in the same order"
  end

  # A bad keyword is the bad option's one line, the keyword named instead,
  # and nothing is written.
  def test_a_bad_keyword_gives_the_bad_options_wording
    out = File.join(@dir, "x.jsonl")
    {["--workers", "0"] => {workers: [0]}, ["--timeout", "0"] => {timeout: 0}, ["--seed", "x"] => {seed: "x"},
     ["--shard", "5/4"] => {shard: "5/4"}, ["--first-run", "never"] => {first_run: "never"}}.each do |(flag, value), keywords|
      cli = ractorbench("run", "-w", "noop", flag, value, "-o", out)
      assert_equal 2, cli.code, cli.err
      line = cli.err.strip.delete_prefix("ractorbench: ")
      error = assert_raises(Ractorbench::UsageError) { Ractorbench.run(workloads: %w[noop], output: out, **keywords) }
      keyword = "#{keywords.keys.first}:"
      assert_equal line.gsub(flag, keyword).sub(value.inspect, keywords.values.first.then { |v| Array(v).first }.inspect),
        error.message
      refute_includes error.message, flag
    end
    error = assert_raises(Ractorbench::UsageError) { Ractorbench.try(JsonParse, items: 0, output: out) }
    cli = ractorbench("try", File.join(ROOT, "examples", "json_parse.rb"), "--items", "0", "-o", out)
    assert_equal cli.err.strip.delete_prefix("ractorbench: ").sub("--items", "items:").sub('"0"', "0"), error.message
    refute File.exist?(out), "nothing written"
  end

  # try from Ruby: the header records the call, and the sweep is the CLI's.
  def test_try_from_ruby_records_the_call_and_sweeps_what_the_cli_sweeps
    api = Ractorbench.try(JsonParse, items: 60, workers: [1, 2], reps: 1, models: %w[threads], seed: 7,
      output: File.join(@dir, "api.jsonl"))
    header = results_lines(api.path).first
    assert_equal "Ractorbench.try(JsonParse, items: 60, workers: [1, 2], reps: 1, models: [\"threads\"], seed: 7, " \
      "output: #{api.path.inspect})", header["command"]
    refute header.key?("reps"), "try's header has never recorded repetitions"
    assert_equal %w[file file_digest module items preflight excluded patterns], header["try"].keys
    assert_equal [["serial", 1], ["threads", 1], ["threads", 2]], runs_in(api.path).map { |r| [r["model"], r["workers"]] }.sort
    assert_equal runs_in(api.path).size, api.analysis.succeeded + api.analysis.failed + api.analysis.unsupported
    # `report FILE` ends as try did, though the file records a Ruby call.
    shown = ractorbench("report", api.path, env: {"COLUMNS" => "120"})
    assert_equal 0, shown.code, shown.err
    assert_match(/^Recommendation: /, shown.out)
    assert_match(/^Every model returned the same results as serial \(60 items/, shown.out)
  end
end
