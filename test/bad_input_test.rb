# frozen_string_literal: true

require "test_helper"

# Bad input: one line naming the problem, exit 2, no stack trace, nothing written.
class BadInputTest < Minitest::Test
  include CLIHelper

  def test_bad_run_inputs_write_nothing
    Dir.mktmpdir do |dir|
      out = File.join(dir, "r.jsonl")
      {
        ["-w", "nope"] => /unknown workload "nope"; known: .*prime/,
        ["-m", "fork"] => /unknown model "fork"; known: .*processes/,
        ["--suite", "nope"] => /unknown suite "nope"; known: .*basic-benchmarking/,
        ["--workers", "two"] => /--workers must be a positive integer, got "two"/,
        ["--workers", "0"] => /--workers must be a positive integer, got "0"/,
        ["--messages", "-5"] => /--messages must be a positive integer/,
        ["--reps", "1.5"] => /--reps must be a positive integer/,
        ["--scale", "0"] => /--scale must be a positive number/,
        ["--timeout", "soon"] => /--timeout must be a positive number/,
        ["--seed", "x"] => /--seed must be a non-negative integer/,
        ["--ruby", "x=/nonexistent/ruby"] => /--ruby x: command "\/nonexistent\/ruby" not found/,
        ["--ruby", "echo=/bin/echo"] => /--ruby echo: \/bin\/echo is not a Ruby/,
        ["--param", "oops"] => /--param needs KEY=VALUE/,
        ["--bogus"] => /invalid option: --bogus/,
        ["--load", "/nonexistent.rb"] => /cannot read \/nonexistent.rb: no such file/
      }.each do |args, message|
        assert_usage_error ractorbench("run", *args, "-o", out), message
        refute File.exist?(out), "#{args.join(" ")} wrote #{out}"
      end
    end
  end

  def test_an_existing_results_file_is_not_overwritten
    Dir.mktmpdir do |dir|
      out = File.join(dir, "r.jsonl")
      File.write(out, "precious\n")
      assert_usage_error ractorbench("run", "-o", out), /already exists; give another -o .*`ractorbench run --resume /
      assert_equal "precious\n", File.read(out)
    end
  end

  def test_unknown_command_and_help
    assert_usage_error ractorbench("frobnicate"), /unknown command "frobnicate"/
    help = ractorbench("--help")
    assert_equal 0, help.code
    %w[run report list tour].each { |c| assert_match(/^\s+#{c}\s/, help.out) }
  end

  def test_list_names_workloads_models_and_suites_with_a_line_each
    out = ractorbench("list").out
    assert_match(/^  prime\s+prime bit-vector/, out)
    %w[serial threads processes ractors ractors-pipeless processes-split ractors-split].each { |m| assert_match(/^  #{m}\s+\S/, out) }
    assert_match(/^  basic-benchmarking\s+\S/, out)
  end
end
