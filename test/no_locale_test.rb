# frozen_string_literal: true

require "test_helper"
require "shellwords"

# With no locale (env -i, cron, containers: Ruby then takes US-ASCII as
# every string's external encoding, and the file system's) ractorbench
# reads and writes text as UTF-8 all the same: a non-ASCII folder, file
# or constant is no problem, and a command it prints pastes as printed.
class NoLocaleTest < Minitest::Test
  include CLIHelper
  include TempDir

  def setup
    super
    @folder = File.join(@dir, "données é")
    FileUtils.mkdir_p(@folder)
  end

  # Only PATH, and what the variant adds (LC_ALL=C, LANG=POSIX).
  def bare(*args, env: {})
    out, err, status = Open3.capture3({"PATH" => ENV["PATH"]}.merge(env), RbConfig.ruby, EXE, *args, chdir: @dir,
      unsetenv_others: true)
    CLIHelper::Result.new(out, err, status)
  end

  def test_report_of_a_file_in_a_non_ascii_folder
    path = File.join(@folder, "fib.jsonl")
    FileUtils.cp(File.join(ROOT, "examples", "results", "fib.jsonl"), path)
    result = bare("report", path)
    assert_equal 0, result.code, result.err
    assert_includes result.out, path, "the hint names the file as it is"
    refute_match(/Error|\.rb:\d+/, result.err)
  end

  def test_try_checks_a_shipped_example_copied_to_a_non_ascii_folder
    path = File.join(@folder, "string_crunch.rb")
    FileUtils.cp(File.join(ROOT, "examples", "string_crunch.rb"), path)
    result = bare("try", path, "--check")
    assert_equal 0, result.code, result.err
    assert_match(/\A#{Regexp.escape(path)}: StringCrunch\.work follows the contract;?\s+every model can run it/, result.out)
  end

  # The constant is an unfrozen String: the check's diagnosis, not an
  # encoding error.
  def test_a_constant_with_a_non_ascii_letter_gets_its_diagnosis
    path = File.join(@dir, "cafe.rb")
    File.write(path, "module Cafe\n  NAME = \"café\"\n\n  def self.work(item) = NAME.size + item\nend\n")
    result = bare("try", path, "--check")
    refute_match(/invalid byte sequence|incompatible|US-ASCII/, result.out + result.err)
    assert_match(/Cafe\.work follows the contract;?\s+ractors cannot run it/, result.out, result.err)
    assert_match(/Ractor\.make_shareable\(Cafe::NAME\)/, result.out)
  end

  # The command printed for an existing file names it so that a shell
  # given it back gets the same path.
  def test_a_printed_command_names_a_non_ascii_path_as_it_is
    path = File.join(@folder, "r é'.jsonl")
    File.write(path, "x\n")
    result = bare("run", "-w", "prime", "-o", path)
    assert_equal 2, result.code
    command = result.err[/`([^`]+)`/, 1] or flunk(result.err)
    refute_match(/\\é|\?|\uFFFD/, command, "no letter escaped byte by byte or replaced")
    assert_equal ["ractorbench", "run", "--resume", path], Shellwords.split(command)
  end

  # Held out: a whole sweep of a file with a non-ASCII name whose work
  # returns non-ASCII text, with the locale set to C; its file read back
  # by `report` with LANG=POSIX.
  def test_a_sweep_and_its_report_with_the_c_and_posix_locales
    path = File.join(@folder, "crème.rb")
    File.write(path, "# frozen_string_literal: true\n\nmodule Creme\n  WORDS = %w[naïve café façade].freeze\n\n" \
      "  def self.work(item) = WORDS[item % 3] * 2\nend\n")
    out = File.join(@folder, "crème.jsonl")
    swept = bare("try", path, "-m", "threads", "--workers", "1", "--reps", "1", "--items", "6", "-o", out, env: {"LC_ALL" => "C"})
    assert_equal 0, swept.code, swept.err
    assert_equal 2, runs_in(out).count { |r| r["status"] == "ok" }
    reported = bare("report", out, env: {"LANG" => "POSIX"})
    assert_equal 0, reported.code, reported.err
    assert_includes reported.out, "Creme"
  end

  # Held out: a program that only requires ractorbench (the Ruby API)
  # keeps its own encoding and load path; the command and its children
  # set theirs.
  def test_requiring_ractorbench_leaves_the_process_as_it_was
    script = "before = Encoding.default_external; require 'ractorbench'; rubylib = $LOAD_PATH.index(#{@dir.dump}); " \
      "print [before == Encoding.default_external, rubylib && rubylib < $LOAD_PATH.index(RbConfig::CONFIG['rubylibdir'])]"
    out, err, = Open3.capture3({"PATH" => ENV["PATH"], "RUBYLIB" => @dir}, RbConfig.ruby, "-I", File.join(ROOT, "lib"), "-e", script,
      unsetenv_others: true)
    assert_equal "[true, true]", out, err
  end

  # Held out: a --load file in a non-ASCII folder, run and resumed.
  def test_a_loaded_workload_in_a_non_ascii_folder
    load = File.join(@folder, "napping.rb")
    FileUtils.cp(fixture("napping_jobs.rb"), load)
    out = File.join(@folder, "n.jsonl")
    workload = File.read(load)[/workload "([^"]+)"/, 1]
    ran = bare("run", "--load", load, "-w", workload, "-m", "serial", "--workers", "1", "--messages", "2", "--reps", "1", "-o", out)
    assert_includes [0, 1], ran.code, ran.err
    resumed = bare("run", "--resume", out)
    assert_match(/resuming .*: 1 run done, 0 to go/, resumed.err)
  end
end
