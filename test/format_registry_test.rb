# frozen_string_literal: true

require_relative "test_helper"

# A format is one file: it registers itself with its traits, and the
# commands offer it, list it and treat it by those traits without naming it.
class FormatRegistryTest < Minitest::Test
  include CLIHelper
  include TempDir

  RESULTS = File.join(FIXTURES, "results", "basic_benchmarking.jsonl")

  # One small format, written here and loaded into the real command line
  # before it starts: no command file knows its name.
  FORMAT = <<~RUBY
    require "ractorbench/reports"

    module Tally
      def self.render(analysis) = "configurations: \#{analysis.groups.size}; runs: \#{analysis.runs.size}\\n"
    end
    Ractorbench::Reports.register("tally", Tally, extension: "tally")
  RUBY

  def with_format(*args)
    path = File.join(@dir, "tally_format.rb")
    File.write(path, FORMAT)
    ractorbench(*args, env: {"RUBYOPT" => "-I#{File.expand_path("../lib", __dir__)} -r#{path}", "NO_COLOR" => "1"})
  end

  def test_a_registered_format_is_offered_by_report_format
    analysis = Ractorbench::Analysis.new(Ractorbench::Store.read(RESULTS))
    expected = "configurations: #{analysis.groups.size}; runs: #{analysis.runs.size}\n"

    shown = with_format("report", RESULTS, "--format", "tally")
    assert_equal 0, shown.code, shown.err
    assert_equal expected, shown.out

    out = File.join(@dir, "report.tally")
    written = with_format("report", RESULTS, "--format", "tally", "-o", out)
    assert_equal 0, written.code, written.err
    assert_equal expected, File.read(out)
  end

  def test_a_registered_format_is_listed_by_help
    assert_match(/--format [a-z|]*\btally\b/, with_format("report", "--help").out)
    assert_match(/report --format: [a-z, ]*\btally\b/, with_format("help").out)
    refute_match(/\btally\b/, ractorbench("report", "--help").out, "only where its file is loaded")
  end

  def test_the_commands_read_traits_not_names
    # (`rubies --format text|json` is that command's own listing, not a report.)
    commands = Dir[File.expand_path("../lib/ractorbench/commands/*.rb", __dir__)] - [File.expand_path("../lib/ractorbench/commands/ruby_list.rb", __dir__)]
    names = Ractorbench::Reports.names + Ractorbench::Reports.names(of: :sides) + Ractorbench::Reports.names(of: :comparison)
    commands.each do |file|
      text = File.read(file)
      names.uniq.each do |name|
        told = text.match?(/@format\s*==\s*"#{name}"|%w\[[^\]]*\b#{name}\b[^\]]*\]\.include\?\(@format|Reports::#{name.capitalize}\b/)
        refute told, "#{File.basename(file)} tells format #{name} by its name"
      end
    end
    html = Ractorbench::Reports.format("html")
    assert html.browser
    assert_equal "html", html.extension
    assert_equal "summary", Ractorbench::Reports.default.name
    assert_equal "text", Ractorbench::Reports.default(of: :comparison).name
  end

  def test_a_page_for_a_browser_is_refused_on_a_terminal_by_its_trait
    require "pty"
    output = +""
    PTY.spawn({"RUBYOPT" => nil}, RbConfig.ruby, EXE, "report", RESULTS, "--format", "html") do |reader, _writer, pid|
      begin
        reader.each_line { |line| output << line }
      rescue Errno::EIO
        nil
      end
      Process.wait(pid)
    end
    assert_match(/--format html writes a page for a browser: add -o report\.html/, output)
  end
end
