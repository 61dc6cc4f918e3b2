# frozen_string_literal: true

require_relative "test_helper"

# Results files written by earlier versions must keep giving the same
# reports, byte for byte: the results format is a contract with every file
# users already have. After an intended change of a report's output,
# `UPDATE_GOLDEN=1 bundle exec ruby -Itest test/report_golden_test.rb`
# rewrites the expected files; review their diff before committing. JSON
# is compared as data: json versions spell the same Float differently
# (json 2.9 on Ruby 3.4 writes 2.5e-08 where 2.10+ writes 0.000000025).
class ReportGoldenTest < Minitest::Test
  include CLIHelper

  def assert_same_report(golden, actual, format, message)
    return assert_equal(JSON.parse(File.read(golden)), JSON.parse(actual), message) if format == "json"

    assert_equal File.read(golden), actual, message
  end

  DIR = File.join(FIXTURES, "results")
  FORMATS = {"text" => "txt", "markdown" => "md", "csv" => "csv", "json" => "json"}.freeze

  Dir[File.join(DIR, "*.jsonl")].sort.each do |results|
    name = File.basename(results, ".jsonl")
    FORMATS.each do |format, ext|
      define_method(:"test_#{name}_#{format}_report_is_unchanged") do
        result = ractorbench("report", results, "--format", format, env: {"COLUMNS" => "100", "NO_COLOR" => "1"})
        assert_equal 0, result.code, result.err
        golden = File.join(DIR, "#{name}.#{ext}")
        File.write(golden, result.out) if ENV["UPDATE_GOLDEN"]
        assert_same_report golden, result.out, format, "report --format #{format} of #{name}.jsonl changed"
      end
    end
  end

  # `report --by ruby` of a real collection on Ruby 3.1 and 4.0.0.
  BY_RUBY = {"text" => "txt", "markdown" => "md", "json" => "json"}.freeze
  BY_RUBY.each do |format, ext|
    define_method(:"test_two_rubies_by_ruby_#{format}_report_is_unchanged") do
      result = ractorbench("report", File.join(DIR, "two_rubies.jsonl"), "--by", "ruby", "--format", format,
        env: {"COLUMNS" => "100", "NO_COLOR" => "1"})
      assert_equal 0, result.code, result.err
      golden = File.join(DIR, "two_rubies.by_ruby.#{ext}")
      File.write(golden, result.out) if ENV["UPDATE_GOLDEN"]
      assert_same_report golden, result.out, format, "report --by ruby --format #{format} of two_rubies.jsonl changed"
    end
  end
end
