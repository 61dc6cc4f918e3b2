# frozen_string_literal: true

# Runs read by the store's fast ways (templates, fast paths, forked readers)
# against the slow way: every line parsed, checked and folded one by one.
module SameRuns
  # The slow way, line by line, as every line was read before templates:
  # parsed, checked, folded (a bad line skipped, with its number).
  def parsed_one_by_one(run_lines)
    table = Ractorbench::Store::RunTable.new
    skipped = []
    run_lines.each_with_index do |line, n|
      record = Ractorbench::Store.parse_line(line.dup.force_encoding(Encoding::UTF_8))
      table.add(record, nil) if record
    rescue Ractorbench::Store::RunRecord::BadLine, JSON::ParserError, EncodingError
      skipped << n + 2 # the header is line 1
    end
    [table, skipped]
  end

  # Value and type, all the way down: 1 is not 1.0, -0.0 is not 0.0.
  def assert_same_value(expected, actual, where)
    assert_equal expected.class, actual.class, "#{where}: #{expected.inspect} against #{actual.inspect}"
    case expected
    when Hash
      assert_equal expected.keys, actual.keys, where
      expected.each { |k, v| assert_same_value(v, actual[k], "#{where}.#{k}") }
    when Array
      assert_equal expected.size, actual.size, "#{where}: how many"
      expected.zip(actual).each_with_index { |(e, a), i| assert_same_value(e, a, "#{where}[#{i}]") }
    when Float then assert_equal [expected].pack("G"), [actual].pack("G"), "#{where}: #{expected} against #{actual}"
    when nil then assert_nil actual, where
    else assert_equal expected, actual, where
    end
  end

  def assert_same_runs(expected, actual)
    assert_equal expected.size, actual.size, "as many runs"
    expected.zip(actual).each do |want, got|
      assert_same_value want.columns.stored(want.row), got.columns.stored(got.row), want.columns.stored(want.row)["id"]
    end
  end
end
