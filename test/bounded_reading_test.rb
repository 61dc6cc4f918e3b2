# frozen_string_literal: true

require "test_helper"
require "fiddle"

# Hostile corpus, round two, class 5 (issue 23): memory follows the longest
# line. Promise: no reader holds more of one line than a bounded amount
# (Store::BoundedLines): a longer run line is skipped unread with its line
# number, and a file that is not a results file says so in one line — in
# bounded memory, whatever the file holds. The files are sparse (holes read
# as NULs cost no disk) and removed after each test.
class BoundedReadingTest < Minitest::Test
  include CLIHelper
  include TempDir

  GB = 1024**3
  # Most memory a report of such a file may take (its readers included).
  MOST = 300 * 1024 * 1024

  def setup
    super
    @good = File.join(@dir, "good.jsonl")
    made = ractorbench("run", "-w", "noop", "-m", "serial,threads", "--workers", "1", "--messages", "1", "--reps", "2",
      "-o", @good)
    assert_equal 0, made.code, made.err
  end

  # A good file followed by a line of 3 GB (then one more run line): 2.1 GB
  # of memory and 69 s before; now the line is skipped unread.
  def test_a_multi_gigabyte_line_is_skipped_in_bounded_memory
    big = File.join(@dir, "big.jsonl")
    lines = File.readlines(@good)
    File.write(big, lines[0..-2].join)
    File.open(big, "r+") { |f| f.truncate(f.size + 3 * GB) } # a hole: NULs, no disk
    File.write(big, "\n" + lines.last, mode: "a")
    err, status, peak, out = measured("report", big, "--format", "json")
    assert_equal 0, status.exitstatus, err
    assert_equal ["ractorbench: warning: skipped line 5 of #{big}: longer than 16 MB, skipped unread\n"], err.lines
    assert_operator peak, :<, MOST, "report took #{peak / 1024 / 1024} MB"
    assert_equal 4, JSON.parse(out)["succeeded"], "every run line around it was read"
  end

  # 2 GB of NULs used to take 2.1 GB and end in a stack trace (negative
  # string size); a first line that never ends is refused after a bound.
  def test_a_file_that_is_not_a_results_file_says_so_in_one_line
    {"\0" => /\(its first line is not a JSON object\)/, "{" => /\(its first line is longer than 128 MB\)/}.each do |start, why|
      path = File.join(@dir, "not.jsonl")
      File.write(path, start)
      File.truncate(path, 2 * GB)
      err, status, peak, = measured("report", path)
      assert_usage_error CLIHelper::Result.new("", err, status), /#{Regexp.escape(path)} is not a ractorbench results file #{why}/
      assert_operator peak, :<, MOST
      assert_usage_error ractorbench("run", "--resume", path), /is not a ractorbench results file #{why}/
      assert_usage_error ractorbench("merge", path, @good, "-o", File.join(@dir, "m.jsonl")), /is not a ractorbench results file #{why}/
      File.delete(path)
    end
  end

  private

  # stderr, status, the largest resident set of the command and of every
  # process it started, in bytes (getrusage of a fresh Ruby's children),
  # and stdout.
  def measured(*args)
    script = <<~RUBY
      require "fiddle"
      out, err = ARGV.pop(2)
      pid = Process.spawn(*ARGV, out: out, err: err)
      Process.wait(pid)
      usage = Fiddle::Pointer.malloc(256)
      Fiddle::Function.new(Fiddle::Handle::DEFAULT["getrusage"], [Fiddle::TYPE_INT, Fiddle::TYPE_VOIDP], Fiddle::TYPE_INT)
        .call(-1, usage) # RUSAGE_CHILDREN
      puts usage[32, 8].unpack1("q") # ru_maxrss, kB, after the two timevals
      exit $?.exitstatus
    RUBY
    out, err = %w[out err].map { |name| File.join(@dir, name) }
    peak, status = Open3.capture2(RbConfig.ruby, "-e", script, RbConfig.ruby, EXE, *args, out, err)
    [File.read(err), status, peak.to_i * 1024, File.read(out)]
  end
end
