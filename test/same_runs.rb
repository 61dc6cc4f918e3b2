# frozen_string_literal: true

# Runs read by the store against their lines: every line parsed and checked
# on its own (a bad line skipped, with its number).
module SameRuns
  # Each line's record, parsed and checked (RunRecord.validate), and the
  # numbers of the lines that are not runs of the right shape.
  def parsed_one_by_one(run_lines)
    records = []
    skipped = []
    run_lines.each_with_index do |line, n|
      record = Ractorbench::Store::Reader.parse_line(line.dup.force_encoding(Encoding::UTF_8))
      records << Ractorbench::Store::RunRecord.validate(record) if record
    rescue Ractorbench::Store::RunRecord::BadLine, JSON::ParserError, EncodingError
      skipped << n + 2 # the header is line 1
    end
    [records, skipped]
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

  # runs read back whole as their lines hold them, and the fields kept in
  # memory (those the field table says the analysis reads) the lines' own
  # (in the order each field first came in its configuration).
  def assert_same_runs(expected, runs)
    kept = Ractorbench::Store::Columns.kept.keys
    assert_equal expected.size, runs.size, "as many runs"
    expected.zip(runs.to_a).each do |want, got|
      assert_same_value want, got.to_h, want["id"]
      assert_same_value want.slice(*kept).sort.to_h, got.columns.stored(got.row).sort.to_h, want["id"]
    end
  end
end
