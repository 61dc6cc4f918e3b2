# frozen_string_literal: true

require_relative "test_helper"

# Results files written by earlier versions must keep giving the same
# reports, byte for byte: the results format is a contract with every file
# users already have. After an intended change of a report's output,
# `UPDATE_GOLDEN=1 bundle exec ruby -Itest test/report_golden_test.rb`
# rewrites the expected files; review their diff before committing.
class ReportGoldenTest < Minitest::Test
  include CLIHelper

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
        assert_equal File.read(golden), result.out, "report --format #{format} of #{name}.jsonl changed"
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
      assert_equal File.read(golden), result.out, "report --by ruby --format #{format} of two_rubies.jsonl changed"
    end
  end
end
