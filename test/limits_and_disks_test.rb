# frozen_string_literal: true

require "test_helper"
require "hostile_helper"

# Limits and disks named for what they are: a full TMPDIR is TMPDIR's (the
# collector's own copy moves to memory; a results file there is refused or
# stopped naming it, with the resume command and nothing left behind), a
# file-size limit (SIGXFSZ) is survived and named, an open-files limit
# that leaves room for no worker says so, and closed or full standard
# streams still let every run run and record its reason.
class LimitsAndDisksTest < Minitest::Test
  include CLIHelper
  include TempDir
  include HostileHelper

  PRIME = %w[run -w prime -m serial,threads --workers 1 --messages 100 --reps 6].freeze

  def teardown
    system("umount", @tmp, err: File::NULL) if @tmp
    super
  end

  # A TMPDIR of its own, a small tmpfs (skipped where it cannot be mounted).
  def small_tmpdir(kb = 256)
    @tmp = File.join(@dir, "tmp")
    FileUtils.mkdir_p(@tmp)
    skip "tmpfs cannot be mounted here (needs root)" unless system("mount", "-t", "tmpfs", "-o", "size=#{kb}k", "tmpfs", @tmp, err: File::NULL)
    @tmp
  end

  def fill(folder)
    File.open(File.join(folder, "fill"), "w") { |f| loop { f.syswrite("x" * 4096) } }
  rescue Errno::ENOSPC
    nil
  end

  def run_lines(path = @out) = File.exist?(path) ? File.foreach(path).count { |l| l.start_with?('{"type":"run"') } : 0

  def spawned(*args, env: {}, **options)
    out, err, status = Open3.capture3(env, RbConfig.ruby, EXE, *args, **options)
    CLIHelper::Result.new(out, err, status)
  end

  def filled_midway(*args, results:, env:, &midway) = changed_midway(*args, "-o", results, results: results, env: env, &midway)

  def assert_whole_lines(path)
    text = File.read(path)
    assert text.end_with?("\n"), "no half-written line"
    text.lines.each { |l| JSON.parse(l) }
  end

  def test_a_full_tmpdir_is_not_the_results_disk
    tmp = small_tmpdir
    fill(tmp)
    result = spawned(*PRIME, "-o", @out, env: {"TMPDIR" => tmp})
    assert_includes [0, 1], result.code, result.err
    refute_match(/cannot write results/, result.err)
    assert_match(/copy of #{Regexp.escape(@out)} no longer fits in TMPDIR \(#{Regexp.escape(tmp)}: No space left on device\)/, result.err)
    assert_equal 12, run_lines
    assert_equal ["fill"], Dir.children(tmp), "nothing left in TMPDIR"
  end

  # The tour's file goes to TMPDIR without -o: refused naming TMPDIR, and
  # nothing left behind.
  def test_results_in_a_full_tmpdir_are_refused_naming_it
    tmp = small_tmpdir
    fill(tmp)
    path = File.join(tmp, "r.jsonl")
    result = spawned(*PRIME, "-o", path, env: {"TMPDIR" => tmp})
    assert_usage_error(result, /cannot write results to #{Regexp.escape(path)}: No space left on device \(writing to TMPDIR, #{Regexp.escape(tmp)}\)/)
    assert_equal ["fill"], Dir.children(tmp)
  end

  def test_tmpdir_filling_midway_moves_the_copy_to_memory
    tmp = small_tmpdir
    result = filled_midway(*PRIME, results: @out, env: {"TMPDIR" => tmp}) { fill(tmp) }
    assert_includes [0, 1], result.code, result.err
    assert_match(/no longer fits in TMPDIR/, result.err)
    assert_equal 12, run_lines
  end

  def test_results_in_tmpdir_filling_midway_stop_with_the_path_and_the_resume_command
    tmp = small_tmpdir
    path = File.join(tmp, "r.jsonl")
    result = filled_midway(*PRIME, results: path, env: {"TMPDIR" => tmp}) { fill(tmp) }
    assert_equal 1, result.code, result.err
    assert_match(/cannot write to #{Regexp.escape(path)}: No space left on device \(writing to TMPDIR, #{Regexp.escape(tmp)}\); .*: fix that, then `ractorbench run --resume #{Regexp.escape(path)}` finishes it/,
      result.err.lines.last)
    assert_whole_lines(path)
    File.delete(File.join(tmp, "fill"))
    resumed = ractorbench("run", "--resume", path, env: {"TMPDIR" => tmp})
    assert_includes [0, 1], resumed.code, resumed.err
    assert_equal 12, run_lines(path)
  end

  def test_a_file_size_limit_is_named_and_survived_without_a_half_line
    result = spawned(*PRIME, "-o", @out, rlimit_fsize: 6000)
    assert_equal 1, result.code, "not killed by SIGXFSZ: #{result.status.inspect} #{result.err}"
    assert_match(/cannot write to #{Regexp.escape(@out)}: File too large: the file-size limit \(ulimit -f\) is 6000 bytes; .*`ractorbench run --resume #{Regexp.escape(@out)}` finishes it/,
      result.err.lines.last)
    assert_operator run_lines, :<, 12
    assert_whole_lines(@out)
    resumed = ractorbench("run", "--resume", @out)
    assert_includes [0, 1], resumed.code, resumed.err
    assert_equal 12, run_lines
  end

  # Held out: a limit smaller than the header: refused, nothing left.
  def test_a_file_size_limit_below_the_header
    result = spawned(*PRIME, "-o", @out, rlimit_fsize: 200)
    assert_usage_error(result, /cannot write results to .*: File too large: the file-size limit \(ulimit -f\) is 200 bytes/)
    refute File.exist?(@out)
  end

  def test_an_open_files_limit_with_room_for_no_worker_says_so
    result = spawned("run", "-w", "prime", "-m", "processes", "--workers", "1", "-o", @out, rlimit_nofile: 64)
    assert_usage_error(result, /more than a child may open \(64, the hard limit of ulimit -n\); not even one worker fits under ulimit -n 64: raise that limit/)
    refute_match(/W=0/, result.err)
  end

  # Held out: room for some workers: the largest that fits, which runs.
  def test_an_open_files_limit_with_room_for_some_workers_names_the_most
    result = spawned("run", "-w", "prime", "-m", "processes", "--workers", "8", "-o", @out, rlimit_nofile: 80)
    assert_usage_error(result, /the hard limit of ulimit -n\); lower --workers: the most this machine takes is W=4/)
    ran = spawned("run", "-w", "prime", "-m", "processes", "--workers", "4", "--messages", "10", "--reps", "1", "-o", @out, rlimit_nofile: 80)
    assert_includes [0, 1], ran.code, ran.err
    assert_equal 1, run_lines
  end

  def test_closed_or_full_standard_streams_still_run_every_run
    {"2>&-" => {err: :close}, "2>/dev/full" => {err: "/dev/full"}, ">&- 2>&-" => {out: :close, err: :close},
     ">/dev/full" => {out: "/dev/full"}}.each do |shell, streams|
      FileUtils.rm_f(@out)
      pid = Process.spawn(RbConfig.ruby, EXE, "run", "--load", fixture("failing_workloads.rb"), "-w", "prime,raiser", "-m", "serial",
        "--workers", "1", "--messages", "10", "--reps", "2", "-o", @out, out: File::NULL, err: File::NULL, **streams)
      _, status = Process.wait2(pid)
      # What happens to a closing table nobody can be shown is the
      # report's business; a standard error only for progress is this.
      assert_equal 1, status.exitstatus, "#{shell}: a run failed, so 1" unless streams.key?(:out)
      runs = runs_in(@out)
      assert_equal 4, runs.size, shell
      assert_equal 2, runs.count { |r| r["status"] == "ok" }, shell
      runs.reject { |r| r["status"] == "ok" }.each { |r| refute_empty r["reason"].to_s, "#{shell}: the reason is recorded" }
    end
  end
end
