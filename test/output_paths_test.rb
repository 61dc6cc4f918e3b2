# frozen_string_literal: true

require "test_helper"
require "csv"

# Every output path of every command: nothing that exists is replaced
# without --force, and with it only a regular file; a link, a folder or a
# device never. A file system error is one line and exit 2; no temporary
# file is left behind.
class OutputPathsTest < Minitest::Test
  include CLIHelper
  include TempDir

  def setup
    super
    @results = File.join(FIXTURES, "results", "basic_benchmarking.jsonl")
    @precious = File.join(@dir, "precious.txt")
    File.write(@precious, "precious\n")
  end

  def teardown
    assert_empty Dir.glob(File.join(@dir, "**", ".ractorbench-*.tmp"), File::FNM_DOTMATCH), "a temporary file was left"
    super
  end

  def test_report_and_compare_never_replace_without_force
    assert_usage_error report("-o", @precious), /precious\.txt already exists; add --force to replace it/
    assert_usage_error ractorbench("compare", @results, @results, "-o", @precious), /precious\.txt already exists/
    assert_equal "precious\n", File.read(@precious)
    assert_equal 0, report("-o", @precious, "--force").code
    assert_match(/prime/, File.read(@precious))
  end

  def test_links_folders_and_devices_are_never_replaced
    link = File.join(@dir, "link")
    File.symlink(@precious, link)
    dangling = File.join(@dir, "dangling")
    File.symlink(File.join(@dir, "nowhere"), dangling)
    fifo = File.join(@dir, "fifo")
    File.mkfifo(fifo)
    {
      link => /link is a symbolic link; ractorbench never writes through or replaces a link, even with --force/,
      dangling => /dangling is a symbolic link/,
      @dir => /is a folder; give a file name/,
      fifo => /fifo is a named pipe, not a regular file; ractorbench replaces only regular files, even with --force/,
      File::NULL => %r{/dev/null is a device, not a regular file}
    }.each do |path, message|
      assert_usage_error report("-o", path, "--force"), message
    end
    assert_equal "precious\n", File.read(@precious)
    refute File.exist?(File.join(@dir, "nowhere")), "nothing was written through the dangling link"
    assert File.chardev?(File::NULL)
    assert File.pipe?(fifo)
  end

  def test_file_system_errors_are_one_line
    assert_usage_error report("-o", File.join(@precious, "x")), /cannot write .*precious\.txt\/x: Not a directory/
    assert_usage_error report("-o", File.join(@dir, "x" * 300)), /cannot write .*: File name too long/
    assert_usage_error report("-o", File.join(@dir, "missing", "r.txt")), /cannot write .*r\.txt: No such file or directory/
    assert_usage_error report("-o", @results, "--force"), /is .*basic_benchmarking\.jsonl, an input of this report/
    out = File.join(@dir, "x" * 300)
    assert_usage_error ractorbench("run", "-w", "noop", "-o", out), /cannot write .*: File name too long/
  end

  def test_run_and_try_never_replace_without_force
    assert_usage_error ractorbench("run", "-w", "noop", "-o", @precious), /already exists; give another -o \(--force replaces it\), or finish it if it was stopped: `ractorbench run --resume .*`/
    assert_usage_error ractorbench("try", "examples/json_parse.rb", "-o", @precious, chdir: ROOT), /already exists/
    assert_equal "precious\n", File.read(@precious)
    run = ractorbench("run", "-w", "noop", "-m", "serial", "--workers", "1", "--messages", "1", "--reps", "1", "-o", @precious, "--force")
    assert_equal 0, run.code, run.err
    assert_equal "header", results_lines(@precious).first["type"]
  end

  # A file a collection left without a whole header holds no runs: it can
  # be replaced (--force), and says so, instead of being a dead end.
  def test_a_file_without_a_complete_header_says_what_to_do
    {"" => /empty\.jsonl is empty: a collection stopped while creating it, so it holds no runs; delete it, or start again with `-o .* --force`/,
     %({"type":"header","tool":"ractor) => /cut\.jsonl has no complete header \(its first line is cut off\)/}.each do |content, message|
      path = File.join(@dir, content.empty? ? "empty.jsonl" : "cut.jsonl")
      File.write(path, content)
      assert_usage_error ractorbench("run", "-w", "noop", "-o", path), message
      assert_usage_error ractorbench("run", "--resume", path), message
      run = ractorbench("run", "-w", "noop", "-m", "serial", "--workers", "1", "--messages", "1", "--reps", "1", "-o", path, "--force")
      assert_equal 0, run.code, run.err
      assert_equal 1, runs_in(path).size
    end
  end

  def test_names_reach_csv_and_terminals_as_text
    out = File.join(@dir, "names.jsonl")
    run = ractorbench("run", "--load", fixture("formula_names.rb"), "-w", "=HYPERLINK(\"http://x\"),clear\e[2J\nscreen",
      "-m", "@SUM(1+1)", "--workers", "1", "--messages", "1", "--reps", "1", "-o", out)
    assert_equal 0, run.code, run.err
    refute_includes run.out, "\e"
    csv = CSV.parse(report_of(out, "csv"))
    assert_equal ["'=HYPERLINK(\"http://x\")", "clear\\e[2J\\nscreen"], csv.drop(1).map(&:first).sort
    assert(csv.drop(1).all? { |row| row[1] == "'@SUM(1+1)" })
    %w[text markdown summary bm].each do |format|
      text = report_of(out, format)
      refute_match(/\e/, text, "#{format}: an escape character reached the output")
      assert_includes text, "clear\\e[2J\\nscreen", format
    end
  end

  private

  def report(*args) = ractorbench("report", @results, *args)

  def report_of(path, format)
    result = ractorbench("report", path, "--format", format)
    assert_includes [0, 1], result.code, result.err
    result.out
  end
end
