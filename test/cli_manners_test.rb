# frozen_string_literal: true

require_relative "test_helper"
require "ractorbench/base/plural"
require "ractorbench/reports"
require "ractorbench/reports/parts/markdown_text"

# The command line behaves like the Ruby tools people know: a version, help
# for every command with its exit status, every format named, options a
# command does not honour refused, words that agree with their numbers.
class CLIMannersTest < Minitest::Test
  include CLIHelper
  include TempDir

  COMMANDS = %w[compare list report run tour try].freeze

  def test_version_in_every_spelling
    ["--version", "-v", "version", "run --version", "try -v", "report --version"].each do |args|
      result = ractorbench(*args.split)
      assert_equal 0, result.code, "#{args}: #{result.err}"
      assert_equal "ractorbench #{Ractorbench::VERSION}\n", result.out, args
      assert_empty result.err, args
    end
  end

  def test_help_for_every_command_names_its_options_and_exit_status
    COMMANDS.each do |command|
      [["help", command], [command, "--help"], [command, "-h"]].each do |args|
        result = ractorbench(*args)
        assert_equal 0, result.code, "#{args.join(" ")}: #{result.err}"
        assert_match(/\AUsage: ractorbench/, result.out, args.join(" "))
        assert_match(/^\s+-h, --help/, result.out, "#{command}: -h listed")
        assert_match(/^Exit status:\n\s+0 .*\n(?: {5,}\S.*\n)*\s+(1|2) /, result.out, "#{command}: exit codes listed")
        assert_match(/^\s+2 +bad input/, result.out, "#{command}: exit code 2")
        assert_match(/--\[no-\]color/, result.out)
        long = result.out.lines.reject { |l| l.chomp.length <= 100 }
        assert_empty long, "#{command}'s help fits 100 columns"
      end
    end
    assert_equal ractorbench("run", "--help").out, ractorbench("help", "run").out
  end

  def test_top_level_help_lists_commands_formats_and_exit_codes
    %w[-h --help help].each do |arg|
      result = ractorbench(arg)
      assert_equal 0, result.code
      (COMMANDS + %w[help version]).each { |c| assert_match(/^  #{c} /, result.out, "#{arg}: command #{c}") }
      formats = result.out[/^Formats:\n(.*?)\n\n/m, 1]
      refute_nil formats, result.out
      Ractorbench::Reports.names.each { |f| assert_match(/\b#{f}\b/, formats[/report --format:.*/], "format #{f}") }
      Ractorbench::Reports.names(of: :comparison).each { |f| assert_match(/\b#{f}\b/, formats[/compare --format:.*/]) }
      assert_match(/^Exit status:/, result.out)
    end
  end

  def test_unknown_commands_and_help_topics_are_one_line
    assert_usage_error ractorbench("frobnicate"), /unknown command "frobnicate"; run `ractorbench help`/
    assert_usage_error ractorbench("help", "frobnicate"), /no command "frobnicate"; the commands: compare, history, list/
    assert_usage_error ractorbench("help", "run", "try"), /help takes one command/
  end

  # The tour chooses its own plan: run's plan options are refused, not
  # silently ignored (and recorded as if they had counted).
  def test_the_tour_refuses_what_it_would_ignore
    %w[--suite=basic-benchmarking --scale -w -m --workers --messages --param --time --load].each do |option|
      args = option.include?("=") ? [option] : [option, "1"]
      [["tour", *args], args].each do |argv|
        result = ractorbench(*argv, chdir: @dir)
        assert_usage_error result, /the tour does not take #{option.split("=").first}: .*use `ractorbench run #{option.split("=").first} \.\.\.`/
      end
    end
    assert_empty Dir.children(@dir), "nothing was run or written"
    help = ractorbench("tour", "--help").out
    %w[--suite --scale --workloads --load].each { |option| refute_includes help, option }
    %w[--reps --seed --ruby --output --resume --wide].each { |option| assert_includes help, option }
  end

  def test_wide_goes_with_the_summary_only
    assert_usage_error ractorbench("run", "--format", "csv", "--wide"), /--wide widens the summary table; --format csv/
  end

  def test_plural_words
    assert_equal "1 run", Ractorbench::Plural.count(1, "run")
    assert_equal "0 runs", Ractorbench::Plural.count(0, "run")
    assert_equal "2 CPUs", Ractorbench::Plural.count(2, "CPU")
    assert_equal "1 rep", Ractorbench::Plural.count(1, "rep")
    assert_equal "exceeds", Ractorbench::Plural.verb(1, "exceeds", "exceed")
    assert_equal "exceed", Ractorbench::Plural.verb(3, "exceeds", "exceed")
    list = ractorbench("list").out
    refute_match(/\[1 reps\]/, list)
    assert_match(/\[\d+ reps?\]/, list)
  end

  def test_no_output_says_s_in_parentheses
    reports = Dir[File.join(FIXTURES, "results", "*.{txt,md,json}")].map { |f| File.read(f) }.join
    refute_match(/\w\(s\)/, reports)
    refute_match(/\b1 (runs|cores|CPUs|configurations)\b/, reports)
  end

  # Markdown readers see "<0.001", never "&lt;0.001"; a name that looks
  # like a tag is escaped the Markdown way, so no renderer takes it for HTML.
  def test_markdown_has_no_html_entities
    escape = Ractorbench::Reports::Parts::MarkdownText.method(:escape)
    assert_equal "<0.001", escape.call("<0.001")
    assert_equal "n<6", escape.call("n<6")
    assert_equal "\\<script>alert(1)\\</script>", escape.call("<script>alert(1)</script>")
    assert_equal "a \\| b", escape.call("a | b")
    assert_equal "\\&amp; & x", escape.call("&amp; & x")
    Dir[File.join(FIXTURES, "results", "*.md")].each do |md|
      refute_match(/&(lt|gt|amp|quot);/, File.read(md), md)
    end
  end
end
