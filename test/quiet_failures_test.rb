# frozen_string_literal: true

require "test_helper"
require "hostile_helper"

# Hostile corpus, round two, class 6 (issue 23): quieter failures, each
# with the promise it keeps (try's sizes and empty model list are in
# test/bounded_counts_test.rb).
class QuietFailuresTest < Minitest::Test
  include CLIHelper
  include TempDir
  include HostileHelper

  # `run ... 2>&1 | head -1` used to stop silently after 2 of 20 runs, exit
  # 0. Promise: a broken stderr ends the collection as a stop would: exit
  # non-zero (141, as SIGPIPE), the reason in the file's marks, resumable.
  def test_a_broken_stderr_is_a_stop_with_its_reason_in_the_file
    reader, writer = IO.pipe
    pid = Process.spawn(hostile_env, RbConfig.ruby, EXE, "run", "--load", HOSTILE, "-w", "h-crash,noop", "-m", "serial",
      "--workers", "1", "--messages", "1", "--reps", "5", "-o", @out, out: File::NULL, err: writer)
    writer.close
    reader.gets # the collection's first line, then the reader goes away
    reader.close
    _, status = Timeout.timeout(120) { Process.wait2(pid) }
    assert_equal 141, status.exitstatus
    mark = results_lines(@out).last
    assert_equal "interrupted", mark["type"]
    assert_match(/standard error was closed \(its reader went away\)/, mark["why"])
    assert_operator runs_in(@out).size, :<, 10
    resumed = resume
    assert_equal 1, resumed.code, resumed.err
    assert_plan_exact(@out)
  end

  # Promise: a named pipe where a results file is needed is one line, not
  # a wait for ever.
  def test_a_named_pipe_is_refused_where_a_file_is_needed
    fifo = File.join(@dir, "fifo.jsonl")
    File.mkfifo(fifo)
    assert_usage_error guarded("run", "--resume", fifo), /cannot resume .*fifo\.jsonl: it is a named pipe, not a regular file/
    assert_usage_error guarded("merge", fifo, fifo, "-o", File.join(@dir, "m.jsonl")),
      /cannot read .*fifo\.jsonl: it is a named pipe, not a regular file/
  end

  # merge used to take a shard holding none of its runs and write a merged
  # file without them. Promise: unfinished collections are named and
  # refused, unless --allow-partial.
  def test_merge_names_unfinished_shards_and_refuses_them
    shards = %w[1/2 2/2].map do |shard|
      path = File.join(@dir, "shard#{shard.tr("/", "-")}.jsonl")
      made = ractorbench("run", "-w", "noop", "-m", "serial,threads", "--workers", "1", "--messages", "1", "--reps", "2",
        "--seed", "4", "--shard", shard, "-o", path)
      assert_equal 0, made.code, made.err
      path
    end
    header = File.readlines(shards.last).first
    File.write(shards.last, header) # its collection stopped before any run
    planned = JSON.parse(header)["plan"]["size"]
    merged = File.join(@dir, "all.jsonl")
    assert_usage_error ractorbench("merge", *shards, "-o", merged),
      /shard2-2\.jsonl \(0 of its #{planned} planned runs?\) is unfinished: finish each with `ractorbench run --resume FILE`, or give --allow-partial/
    refute File.exist?(merged)
    partial = ractorbench("merge", *shards, "-o", merged, "--allow-partial")
    assert_equal 0, partial.code, partial.err
    assert_match(/warning: unfinished, merged as they are: .*shard2-2\.jsonl \(0 of its #{planned}/, partial.err)
  end

  # Promise: a --load file cannot take a built-in name (the results would
  # carry the built-in's name).
  def test_built_in_names_cannot_be_redefined
    {"workload" => "noop", "model" => "serial"}.each do |kind, name|
      file = File.join(@dir, "redefines_#{name}.rb")
      File.write(file, <<~RUBY)
        require #{File.join(ROOT, "harness", "ractorbench", "harness").inspect}
        module Redefined#{kind.capitalize}
          extend Ractorbench::Harness::#{kind.capitalize}
          #{kind} #{name.inspect}, "not the built-in"#{", family: \"serial\"" if kind == "model"}
          def self.work(job) = job
          def self.run(workload, jobs, _workers) = jobs.map { |job| workload.work(job) }
        end
      RUBY
      assert_usage_error ractorbench("run", "--load", file, "-w", "noop", "-o", @out),
        /redefines_#{name}\.rb defines #{kind} "#{name}", a name ractorbench already has \(.*#{name}\.rb\): give yours another name/
      refute File.exist?(@out)
    end
  end

  # Promise: every command printed to paste is shell-quoted: a space stays
  # in one word, a `$(...)` in a path never runs.
  def test_printed_commands_are_shell_quoted
    folder = File.join(@dir, "my $(touch pwned) results")
    FileUtils.mkdir_p(folder)
    out = File.join(folder, "r 1.jsonl")
    result = ractorbench("run", "-w", "noop", "-m", "serial", "--workers", "1", "--messages", "1", "--reps", "1", "-o", out,
      chdir: @dir)
    assert_equal 0, result.code, result.err
    command = result.err[/^    ractorbench (report .+)$/, 1]
    refute_nil command, result.err
    _, status = Open3.capture2e("sh", "-c", "#{RbConfig.ruby} #{EXE} #{command}", chdir: @dir)
    assert status.success?, "the printed command did not read the file: #{command}"
    refute File.exist?(File.join(@dir, "pwned")), "the path's $(...) ran"
  end

  # After Ctrl-C a reader of `report` used to keep working for seconds.
  # Promise: an interrupted report stops reading and exits 130.
  def test_an_interrupted_report_stops_reading
    big = File.join(@dir, "big.jsonl")
    made = ractorbench("run", "-w", "noop", "-m", "serial", "--workers", "1", "--messages", "1", "--reps", "2", "-o", big)
    assert_equal 0, made.code, made.err
    # 6 GB more in lines of 200 MB of NULs (holes: no disk).
    File.open(big, "r+") do |f|
      30.times do
        f.seek(200 * 1024**2, IO::SEEK_END)
        f.write("\n")
      end
    end
    err = File.join(@dir, "report.err")
    pid = Process.spawn(RbConfig.ruby, EXE, "report", big, out: File::NULL, err: err)
    read = -> { File.read("/proc/#{pid}/io")[/^rchar: (\d+)/, 1].to_i }
    wait_for(60) { read.call > 300 * 1024**2 } # reading the lines of NULs
    Process.kill(:INT, pid)
    _, status = Timeout.timeout(60) { Process.wait2(pid) }
    assert_equal 130, status.exitstatus, "what the report printed: #{File.read(err)}"
  end

  # A run that stopped its collector (SIGSTOP) hung it silently. Promise:
  # the next --resume on that file names the stopped collector.
  def test_a_stopped_collector_is_named_by_the_next_resume
    pid = hostile_in_background("h-stop-parent,noop", "--reps", "1")
    wait_for { File.exist?(File.join(@dir, "stopped.pid")) && state(pid) == "T" }
    assert_usage_error guarded("run", "--resume", @out, env: hostile_env),
      /r\.jsonl is being written by another ractorbench \(pid #{pid}\), which is stopped \(SIGSTOP, perhaps by one of its own runs\): `kill -CONT #{pid}` lets it go on/
    Process.kill(:CONT, pid)
    _, status = Timeout.timeout(120) { Process.wait2(pid) }
    pid = nil
    assert_equal 0, status.exitstatus
    assert_plan_exact(@out)
  ensure
    Process.kill(:KILL, pid) && Process.wait(pid) if pid
  end

  private

  def state(pid) = File.read("/proc/#{pid}/stat").split(") ").last.split.first
end
