# frozen_string_literal: true

require "test_helper"
require "pty"

# What a collection records and prints: the header, rubies, the seeded order,
# unsupported models, the suite, and the progress line on a terminal only.
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
end
