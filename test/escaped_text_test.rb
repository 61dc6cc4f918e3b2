# frozen_string_literal: true

require_relative "test_helper"

# Text the tool prints comes from the user (a path, a module, a message, a
# results file) and goes to a shell, a terminal or a Markdown renderer:
# every command printed for pasting is shell-quoted (Printable.command),
# every line for a terminal has its control characters shown escaped
# (Console#present, the CLI's last line), every Markdown line from a file
# escaped (MarkdownText) or fenced as code.
class EscapedTextTest < Minitest::Test
  include CLIHelper
  include TempDir

  FIB = File.join(ROOT, "examples", "results", "fib.jsonl")
  RAW_ESCAPE = /\e|\a/

  # Every printed command, run by a shell as pasted, reads the file; no
  # $(...), backquote or ; of the path runs.
  def test_reports_closing_command_runs_as_printed_whatever_the_path
    ["$(touch pwned)", "`touch pwned`", "a; touch pwned", "it's \"here\" & there"].each_with_index do |name, i|
      folder = File.join(@dir, "#{i} #{name}")
      FileUtils.mkdir_p(folder)
      path = File.join(folder, "r.jsonl")
      FileUtils.cp(FIB, path)
      result = ractorbench("report", path)
      assert_equal 0, result.code, result.err
      command = result.out[/^    ractorbench (report .+ --format text)$/, 1]
      refute_nil command, result.out
      out, status = Open3.capture2e("sh", "-c", "#{RbConfig.ruby} #{EXE} #{command}", chdir: @dir)
      assert status.success?, "#{name}: the printed command did not read the file: #{command}\n#{out}"
      assert_match(/fib/, out)
      refute File.exist?(File.join(@dir, "pwned")), "#{name}: the path ran"
    end
  end

  # try's one line quotes the user's message and path: escapes shown, not obeyed.
  def test_try_shows_the_users_escape_codes_escaped
    {
      "work.rb" => "module EscWork\n  def self.work(i) = raise(ArgumentError, \"\\e[31mRED\\e]0;title\\a\")\nend\n",
      "path\e[32mgreen.rb" => "module EscPath\n  def self.work(i) = raise(ArgumentError, \"plain\")\nend\n",
      "load.rb" => "raise \"\\e[31mload\\e[0m\"\nmodule EscLoad\n  def self.work(i) = i\nend\n",
      # held out: a C1 control (CSI) in the message, and one in items
      "csi.rb" => "module EscCsi\n  def self.work(i) = raise(\"\\u009B31mcsi\")\nend\n",
      "items.rb" => "module EscItems\n  def self.items(n) = raise(\"\\e[2Jcleared\")\n  def self.work(i) = i\nend\n"
    }.each do |name, source|
      path = File.join(@dir, name)
      File.write(path, source)
      result = ractorbench("try", path, "-o", File.join(@dir, "t.jsonl"))
      assert_usage_error result, /\\e\[|\\u009B/
      refute_match RAW_ESCAPE, result.err, name
      refute_match(/\u009B/, result.err, name)
    end
  end

  # Markdown from a file whose names, reasons and machine carry HTML: no
  # tag reaches a renderer outside a code span.
  def test_markdown_escapes_every_line_from_the_file
    header, *runs = File.readlines(FIB).map { |l| JSON.parse(l) }
    header["machine"]["cpu_model"] = "<script>alert(1)</script>"
    header["machine"]["os"] = "<img src=x onerror=alert(2)>"
    runs.each { |r| r["params"] = {"n" => "<script>alert(3)</script>"} if r["type"] == "run" }
    failed = runs.find { |r| r["type"] == "run" }
    failed.merge!("status" => "failed", "failure" => "exception", "reason" => "raised RuntimeError: /tmp/<script>x</script>/`y`.rb")
    path = File.join(@dir, "html.jsonl")
    File.write(path, [header, *runs].map { |l| JSON.generate(l) + "\n" }.join)
    result = ractorbench("report", path, "--format", "markdown")
    assert_includes [0, 1], result.code, result.err
    outside_code = result.out.gsub(/(`+) .*? \1|`[^`]*`/, "")
    refute_match(/(?<!\\)<(script|img)/, outside_code, result.out)
    assert_match(/\\<script>alert\(1\)/, result.out)
    assert_match(/`` FAILED .*`y`\.rb ``/, result.out, "a command with a backquote is fenced beyond it")
  end
end
