# frozen_string_literal: true

require "test_helper"
require "tmux_helper"
require "cgi"
require "json"

# The code try prints for the recommended model is pasted by its reader:
# taken from a real terminal at 80, 100 and 132 columns (a pty; a line the
# terminal wrapped on the screen is copied whole), from the Markdown and
# from the HTML page, every shape's snippet runs on every Ruby installed
# (3.x and 4.x take their own branch of it) and returns serial's results.
class SnippetsTest < Minitest::Test
  include CLIHelper
  include TmuxHelper

  WIDTHS = [80, 100, 132].freeze
  MODELS = %w[threads fibers processes processes-split ractors-batched ractors-split].freeze

  WORK = <<~RUBY
    module Tally
      def self.items(n) = (1..n).to_a

      def self.work(item)
        sum = 0
        300.times { |i| sum += (item * i) % 7 }
        [item, sum]
      end
    end
  RUBY

  PROGRAM = <<~RUBY
    Warning[:experimental] = false
    %s
    items = (1..301).to_a
    %s
    puts(results == items.map { |item| Tally.work(item) } ? "same" : "differ: \#{results.inspect[0, 200]}")
  RUBY

  # One real try of every shape (the slow part), then a copy of its results
  # file per model in which that model ran clearly faster than serial and
  # the others did not: each copy's screen recommends that model.
  def self.files(test)
    @files ||= begin
      dir = Dir.mktmpdir
      Minitest.after_run { FileUtils.rm_rf(dir) }
      work = File.join(dir, "tally.rb")
      File.write(work, WORK)
      results = File.join(dir, "all.jsonl")
      screen = test.on_terminal([RbConfig.ruby, EXE, "try", work, "-m", MODELS.join(","), "--workers", "2", "--reps", "2",
        "--items", "200", "-o", results], width: 80, env: {"COLUMNS" => nil})
      test.assert_equal 0, screen.code, screen.text
      [screen, MODELS.to_h { |model| [model, winner(results, model, File.join(dir, "#{model}.jsonl"))] }]
    end
  end

  def self.winner(results, model, path)
    header, *runs = File.readlines(results).map { |l| JSON.parse(l) }
    serial = runs.select { |r| r["model"] == "serial" }.map { |r| r["messages_time"] }.min
    runs.each do |r|
      r["disturbed"] = false # this machine is shared: here the sweep ran alone
      next if r["model"] == "serial"

      r["messages_time"] = (r["model"] == model) ? serial / 1.9 : serial * 1.05
    end
    File.write(path, [header, *runs].map { |r| JSON.generate(r) }.join("\n") + "\n")
    path
  end

  def setup
    @try_screen, @files = self.class.files(self)
  end

  def test_every_shape_as_printed_anywhere_runs_on_every_ruby_as_serial_does
    snippets = Hash.new { |h, k| h[k] = [] }
    @files.each do |model, file|
      WIDTHS.each do |width|
        screen = on_terminal([RbConfig.ruby, EXE, "report", file], width: width, env: {"COLUMNS" => nil})
        assert_equal 0, screen.code, screen.text
        code = from_screen(screen.lines)
        refute_nil code, "#{model} at #{width} columns: no snippet on the screen:\n#{screen.text}"
        snippets[code] << "#{model}, screen at #{width}"
      end
      snippets[from_markdown(report(file, "markdown"))] << "#{model}, Markdown"
      snippets[from_html(report(file, "html"))] << "#{model}, HTML"
    end
    try_code = from_screen(@try_screen.lines)
    snippets[try_code] << "try's own screen at 80" if try_code
    assert snippets.keys.all?, "every format shows the snippet: #{snippets.select { |k, _| k.nil? }.values}"
    assert_operator snippets.size, :>=, MODELS.size + 2, "the 80-column screen lays some comments out apart"

    snippets.each do |code, where|
      rubies.each do |ruby|
        out, err, status = Open3.capture3(env, ruby, *gem_paths, "-e", format(PROGRAM, WORK, code), unsetenv_others: true)
        assert status.success?, "#{where.join("; ")} on #{ruby}:\n#{code}\n#{err}"
        assert_equal "same", out.strip, "#{where.join("; ")} on #{ruby}"
      end
    end
  end

  def test_at_80_columns_a_long_comment_stands_above_its_code_and_no_line_is_broken
    screen = on_terminal([RbConfig.ruby, EXE, "report", @files.fetch("processes")], width: 80, env: {"COLUMNS" => nil})
    code = from_screen(screen.lines).lines.map(&:chomp)
    comment = code.index { |l| l.start_with?("# gem \"parallel\"") }
    assert comment, "the comment on its own line:\n#{code.join("\n")}"
    assert_equal "require \"parallel\"", code[comment + 1]
    long = code.find { |l| l.start_with?("results = Parallel.map") }
    assert_operator long.length + 4, :>, 80, "a code line wider than the screen"
    assert long.end_with?("do |batch|"), "is printed whole: #{long}"
  end

  private

  def report(file, format)
    out = File.join(File.dirname(file), "#{File.basename(file, ".jsonl")}.#{format}")
    result = ractorbench("report", file, "--format", format, "-o", out, "--force")
    assert_equal 0, result.code, result.err
    File.read(out)
  end

  # The lines under "The same shape in your code", less their indent.
  def from_screen(lines)
    start = lines.index { |l| l.start_with?("The same shape in your code") }
    return nil unless start

    lines.drop(start + 1).take_while { |l| l.start_with?("    ") }.map { |l| l.delete_prefix("    ") }.join("\n")
  end

  def from_markdown(text) = text[/^```ruby\n(.*?)^```$/m, 1]

  def from_html(page)
    code = page[%r{<pre class="snippet scroll"><code>(.*?)</code></pre>}m, 1]
    code && CGI.unescapeHTML(code)
  end

  # This Ruby, the installed ones and the machine's own (Debian's 3.1), each once.
  def rubies
    [RbConfig.ruby, *Dir["/opt/rubies/*/bin/ruby"], "/usr/bin/ruby"].select { |r| File.executable?(r) }.uniq { |r| File.realpath(r) }
  end

  # As a user's shell has it: without this bundle's settings.
  def env = Ractorbench::Measure::ChildEnvironment.base

  # The parallel gem (pure Ruby) from whichever Ruby here has it installed:
  # the others may lack it, and every Ruby must run the processes' snippets.
  def gem_paths
    @gem_paths ||= begin
      found = rubies.lazy.filter_map do |ruby|
        out, _, status = Open3.capture3(env, ruby, "-e", 'print Gem::Specification.find_by_name("parallel").full_require_paths.first',
          unsetenv_others: true)
        out if status.success? && !out.empty?
      end.first
      found ? ["-I", found] : flunk("the parallel gem is missing: gem install parallel")
    end
  end
end
