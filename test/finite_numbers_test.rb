# frozen_string_literal: true

require_relative "test_helper"

# Numbers that are not finite, or too big to mean anything: JSON reads
# 1e400 as Infinity and keeps a 400-digit integer whole, Float("1e400") is
# Infinity. Each is checked where it is read, against its range: a header
# is refused in one line naming the field, a run line is skipped naming
# it, an option is refused in one line; no format crashes and none prints
# 400 digits.
class FiniteNumbersTest < Minitest::Test
  include CLIHelper
  include TempDir

  FIB = File.join(ROOT, "examples", "results", "fib.jsonl")
  NAP_BEFORE = File.join(ROOT, "examples", "results", "nap_before.jsonl")
  NAP_AFTER = File.join(ROOT, "examples", "results", "nap_after.jsonl")
  DIGITS = "9" * 400
  FORMATS = %w[text summary markdown json csv html].freeze

  # The header's number at keys made `raw` (JSON text, as a file would hold it).
  def with_header(name, keys, raw)
    header, *runs = File.readlines(FIB)
    parsed = JSON.parse(header)
    keys[0...-1].reduce(parsed) { |h, k| h[k] }[keys.last] = "@@RAW@@"
    path = File.join(@dir, "#{name}.jsonl")
    File.write(path, [JSON.generate(parsed).sub("\"@@RAW@@\"", raw) + "\n", *runs].join)
    path
  end

  def test_a_header_number_that_is_not_finite_or_in_range_is_one_line_in_every_format_and_the_api
    {
      [%w[machine cores], "1e400"] => /its machine\.cores is Infinity, not a finite number/,
      [%w[machine cores], DIGITS] => /its machine\.cores is a number of 400 digits, not a finite number/,
      [%w[machine cores], "-1e400"] => /its machine\.cores is -Infinity/,
      [%w[machine usable_cores], "0"] => /its machine\.usable_cores is 0, not a whole number of at least 1/,
      [%w[machine cores], "2.5"] => /its machine\.cores is 2\.5, not a whole number of at least 1/,
      [%w[machine memory_kb], "-5"] => /its machine\.memory_kb is -5, not a whole number of 0 or more/,
      [%w[timeout], "1e400"] => /its timeout is Infinity/,
      [%w[timeout], "-1"] => /its timeout is -1, not a number above 0/,
      # held out: a number deep in a list, and one no report reads
      [%w[machine load_average], "[1e400, 1, 1]"] => /its machine\.load_average\[0\] is Infinity/,
      [%w[machine load_average], "[-1, 1, 1]"] => /its machine\.load_average is not a list of numbers from 0/,
      [%w[machine hostname_digits], DIGITS] => /its machine\.hostname_digits is a number of 400 digits/
    }.each_with_index do |((keys, raw), message), i|
      path = with_header("h#{i}", keys, raw)
      (i.zero? ? FORMATS : %w[text]).each do |format|
        result = ractorbench("report", path, "--format", format)
        assert_usage_error result, message
        assert_match(/damaged header/, result.err)
        assert_empty result.out, "#{keys.join(".")}=#{raw[0, 10]} #{format}"
      end
      api = ruby_script("begin; Ractorbench.read(#{path.inspect}); rescue Ractorbench::UsageError => e; puts e.message; end", "ractorbench")
      assert_equal 0, api.code, api.err
      assert_match message, api.out
      assert_usage_error ractorbench("compare", path, FIB), message
    end
  end

  def test_a_run_line_with_a_number_out_of_range_is_skipped_naming_the_field
    header, *runs = File.readlines(FIB)
    ok = runs.each_index.select { |i| runs[i].include?('"status":"ok"') }
    changed = {
      ok[0] => [/"workers":\d+/, "\"workers\":#{DIGITS}", /workers is not a positive integer under 10\^18/],
      ok[1] => [/"rep":\d+/, "\"rep\":#{DIGITS}", /rep is not a positive integer under 10\^18/],
      ok[2] => [/"params":\{[^}]*\}/, '"params":{"n":1e400}', /params is not an object of plain values, numbers finite/],
      ok[3] => [/"messages_time":[0-9.e-]+/, '"messages_time":1e400', /messages_time is not a number of seconds/],
      ok[4] => [/"messages":\d+/, "\"messages\":#{DIGITS}", /messages is not a positive integer under 10\^18/],
      # held out: a parameter of 400 digits
      ok[5] => [/"params":\{[^}]*\}/, "\"params\":{\"n\":#{DIGITS}}", /params is not an object of plain values/]
    }
    changed.each { |i, (from, to, _)| runs[i] = runs[i].sub(from, to) }
    path = File.join(@dir, "runs.jsonl")
    File.write(path, [header, *runs].join)
    FORMATS.each do |format|
      result = ractorbench("report", path, "--format", format)
      assert_includes [0, 1], result.code, "#{format}: #{result.err}"
      refute_match(/\.rb:\d+:in /, result.err)
      changed.each_value { |_, _, message| assert_match message, result.err, format }
      refute_match(/\d{30}|Infinity/, result.out, "#{format} printed a number out of range")
    end
  end

  def test_options_with_numbers_that_are_not_finite_are_one_line
    out = File.join(@dir, "r.jsonl")
    {
      ["run", "--timeout", "1e400"] => /--timeout must be a finite number under 10\^18, got "1e400"/,
      ["run", "--workers", DIGITS] => /--workers must be a finite number under 10\^18, got "999999999999"\.\.\. \(400 characters\)/,
      ["run", "--messages", DIGITS] => /--messages must be a finite number under 10\^18/,
      ["run", "-w", "fib", "--param", "n=1e400"] => /--param n must be a finite number under 10\^18, got "1e400"/,
      ["run", "--seed", DIGITS] => /--seed must be a finite number under 10\^18/,
      ["run", "--scale", "1e400"] => /--scale must be a finite number under 10\^18/,
      # held out: try's options and a negative infinity
      ["try", "examples/json_parse.rb", "--items", DIGITS] => /--items must be a finite number under 10\^18/,
      ["try", "examples/json_parse.rb", "--timeout", "1e999"] => /--timeout must be a finite number/,
      ["run", "-w", "fib", "--param", "n=-1e400"] => /--param n must be a finite number/
    }.each do |args, message|
      assert_usage_error ractorbench(*args, "-o", out, chdir: ROOT), message
      refute File.exist?(out), args.join(" ")
    end
  end

  def test_compare_refuses_a_threshold_or_alpha_that_is_not_finite
    ["1e400", "1e400%", DIGITS, "Infinity", "NaN"].each do |pct|
      assert_usage_error ractorbench("compare", NAP_BEFORE, NAP_AFTER, "--fail-above", pct), /--fail-above takes a percentage, a finite number/
    end
    assert_usage_error ractorbench("compare", NAP_BEFORE, NAP_AFTER, "--alpha", "1e-400"), /--alpha must be a number between 0 and 1/
  end
end
