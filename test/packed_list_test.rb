# frozen_string_literal: true

require_relative "test_helper"
require_relative "same_runs"
require_relative "synthetic_results"

# A column's values are kept packed (Store::Columns::PackedList): Integers
# in as few bytes as they need, decimals of up to six places as counts of
# their last place, other Floats as doubles, flags as bytes, anything else
# aside or in a plain Array. However a list is filled or handed over
# (Marshal), every value must read back as it went in: value and type, -0.0
# and 1.0 against 1 and all.
class PackedListTest < Minitest::Test
  include SameRuns
  include TempDir

  PackedList = Ractorbench::Store::Columns::PackedList
  MISSING = Ractorbench::Store::Columns::MISSING

  # Values a packing must not take (or must not change), beside ordinary ones.
  AWKWARD = [-0.0, 0.0, 1, 1.0, -1, 2**63 - 1, -2**63, 2**63, -2**63 - 1, 2**80, nil, MISSING, "ok", {"a" => 1},
    [3, 1], true, false, 0.1 + 0.2, 5e-324, 1.7976931348623157e308, 1e-7, 123456.789012, 9007199254740.993,
    4503599627.370497, 0.30000000000000004, [0.0], [-0.0], [1.0], [1], ["a", 1], [], {"a" => 1, "b" => 2},
    {"b" => 2, "a" => 1}, "", "é"].freeze

  def assert_reads_back(values, list, where)
    assert_equal values.size, list.size, "#{where}: size"
    assert_same_value values, list.to_a, "#{where}: to_a"
    assert_same_value values.map { |v| v.equal?(MISSING) ? nil : v }, list.to_a(nil), "#{where}: to_a(nil)"
    values.each_index { |i| assert_same_value values[i], list[i], "#{where}: [#{i}]" }
    rows = values.each_index.to_a.shuffle(random: Random.new(values.size))
    assert_same_value values.values_at(*rows), list.values_at(*rows), "#{where}: values_at"
    again = Marshal.load(Marshal.dump(list))
    assert_same_value values, again.to_a, "#{where}: through Marshal"
    values.each_index { |i| assert_same_value values[i], again[i], "#{where}: [#{i}] through Marshal" } if values.size < 300
  end

  # Appended one by one and in batches of every size, trimmed or not.
  def filled(values, random)
    list = PackedList.new
    rest = values.dup
    until rest.empty?
      if rest.first.equal?(MISSING) && random.rand(2).zero?
        missing = rest.index { |value| !value.equal?(MISSING) } || rest.size
        list.skip(missing) # runs without the field, as Column pads them
        rest.shift(missing)
      elsif random.rand(3).zero?
        list << rest.shift
      else
        list.concat(rest.shift(random.rand(1..150)))
      end
      list.trim if random.rand(20).zero?
    end
    list
  end

  def test_every_kind_of_value_reads_back_as_it_went_in
    random = Random.new(24)
    pools = {
      "small counts" => -> { random.rand(0..200) },
      "counts past 32 bits" => -> { random.rand(2**40) * (random.rand(2).zero? ? 1 : -1) },
      "microseconds" => -> { random.rand(1..3_000_000) / 1e6 },
      "load averages" => -> { random.rand(0..900) / 100.0 },
      "nanosecond times" => -> { random.rand },
      "flags" => -> { random.rand(2).zero? },
      "strings" => -> { %w[ok failed unsupported].sample(random: random) },
      "worker jobs" => -> { [random.rand(100), random.rand(100)] },
      "stderr lines" => -> { ["line #{random.rand(5)}"] * random.rand(3) },
      "distinct strings" => -> { random.rand.to_s }
    }
    pools.each do |name, pool|
      [0, 1, 63, 64, 65, 700].each do |size|
        plain = Array.new(size) { pool.call }
        assert_reads_back plain, filled(plain, random), "#{name} x #{size}"
        # The same with awkward values scattered, a few or many.
        [2, 40].each do |awkward|
          mixed = plain.dup
          awkward.times { mixed.insert(random.rand(mixed.size + 1), AWKWARD.sample(random: random)) }
          assert_reads_back mixed, filled(mixed, random), "#{name} x #{size} with #{awkward} awkward"
        end
      end
    end
    assert_reads_back AWKWARD * 30, filled(AWKWARD * 30, random), "nothing but awkward values"
  end

  # Lists where every value is of the packing's type and yet some cannot be
  # coded: Integers past 64 bits, decimals of more places than the ones
  # before them, Floats of no few places, -0.0 among decimals.
  def test_values_at_a_packings_edges_read_back
    random = Random.new(5)
    {
      "Integers past 64 bits" => [1, 2**63, 3, -2**63 - 1, 2**63 - 1, -2**63, 2**80, 127, -128, 128, 32_768, -32_769],
      "more places as they come" => [1.5, 2.0, 0.25, 0.125, 0.078388, 1e-6, 3.0],
      "a double among decimals" => [0.5, 0.007588935321466314, 0.25],
      "-0.0 among decimals" => [0.5, -0.0, 0.0, 0.25],
      "huge and tiny Floats" => [1.5, 1e300, 5e-324, -1e-300, 2.0**53, 2.0**52 / 1e6]
    }.each do |what, values|
      [1, 30, 100].each do |times|
        list = values * times
        assert_reads_back list, filled(list, random), "#{what} x #{times}"
      end
    end
  end

  # A list handed over (Marshal: a reader's table to the report, its rows
  # to forked parts) reads back as it was and takes more values after: by
  # one and by many, runs without the field, trimmed, handed over again.
  def test_lists_handed_over_and_appended_to_read_back
    random = Random.new(7)
    [
      Array.new(300) { random.rand(100) }, Array.new(200) { random.rand(2**31) }, Array.new(90) { random.rand(10**6) / 1e6 },
      Array.new(130) { random.rand(10**6) / 1e3 }, Array.new(70) { random.rand }, [MISSING] * 10 + [1] * 100, [],
      Array.new(100) { AWKWARD.sample(random: random) }, [-0.0] * 65,
      Array.new(90) { %w[ok failed].sample(random: random) }, [MISSING] * 3 + Array.new(70) { ["x", random.rand(3)] },
      Array.new(200) { |i| (i % 7 < 2) ? MISSING : random.rand(1000) }
    ].each do |values|
      where = "#{values.first(2).inspect}..."
      list = Marshal.load(Marshal.dump(filled(values, random)))
      assert_reads_back values, list, where
      later = Array.new(random.rand(0..70)) { AWKWARD.sample(random: random) }
      later.each_slice(7).with_index { |slice, i| i.even? ? list.concat(slice) : slice.each { |v| list << v } }
      list.skip(2)
      list.trim
      assert_reads_back values + later + [MISSING] * 2, Marshal.load(Marshal.dump(list)), "#{where}, appended, handed over again"
    end
  end

  # Through the store: lines read by templates and parsed, by one reader
  # and by several (the packed lists through Marshal and merged), with
  # values of every kind a field accepts scattered among ordinary ones,
  # and failed runs without the measured fields among ok ones.
  def test_runs_read_back_as_their_lines_have_them_however_the_fields_vary
    random = Random.new(11)
    path = SyntheticResults.write(File.join(@dir, "varied.jsonl"), {
      ["prime", "serial", 1, 4, "ruby"] => Array.new(700) { random.rand(1..90_000) / 1e6 },
      ["prime", "threads", 2, 4, "ruby"] => Array.new(300) { random.rand }
    })
    odd = {
      "whole_time" => [1, 0, -0.0, 0.1 + 0.2, nil, 2.5e-9, 86_399.999999],
      "load_average_1m" => [-0.0, 7, nil, 123_456_789_012_345.5, 1e-9, 0.30000000000000004],
      "gc_count" => [2**40, 1.5, nil, 0, -0.0],
      "results" => [2**70, -2**63 - 1, "text", {"b" => 1, "a" => 2}, [1.0], -0.0, nil, true],
      "worker_jobs" => [[], [1.5], nil, [2**70], ["a"]],
      "disturbed" => [nil, true],
      "user" => [-0.0, 0.0, 0.1 + 0.2] # Floats only: a decimal's batch all Floats, -0.0 among them
    }
    lines = File.readlines(path)
    runs = lines.drop(1).map do |line|
      run = JSON.parse(line)
      run["load_average_1m"] = random.rand(0..900) / 100.0
      run["worker_jobs"] = [random.rand(9), random.rand(9)]
      run["disturbed"] = random.rand(10).zero?
      odd.each { |key, values| run[key] = values.sample(random: random) if random.rand(40).zero? }
      run.delete("disturbed") if random.rand(50).zero?
      run.merge!("status" => "failed", "reason" => "boom #{random.rand(3)}").delete("messages_time") if random.rand(30).zero?
      run
    end
    run_lines = runs.map { |run| JSON.generate(run) + "\n" }
    File.write(path, lines.first + run_lines.join)
    by_model = runs.group_by { |run| run["model"] }
    keys = %w[whole_time user load_average_1m gc_count results worker_jobs disturbed messages_time status]
    [1, 2, 3].each do |readers|
      contents = Ractorbench::Store.read(path, readers: readers)
      assert_equal [readers, runs.size, []], [contents.readers, contents.runs.size, contents.skipped]
      contents.runs.columns.each do |columns|
        lines = by_model.fetch(columns.configuration.model)
        where = "#{readers} readers, #{columns.label}"
        lines.each_with_index { |run, row| assert_same_value run.sort.to_h, columns.stored(row).sort.to_h, "#{where} row #{row}" }
        rows = (0...lines.size).select(&:odd?)
        keys.each do |key|
          assert_same_value lines.map { |run| run[key] }, columns.values(key), "#{where}: #{key}"
          assert_same_value lines.values_at(*rows).map { |run| run[key] }, columns.values(key, rows), "#{where}: #{key}, odd rows"
        end
      end
    end
  end

  # A list as long as a big file's (a configuration of hundreds of
  # thousands of runs, a table's run order): nothing is splatted onto the
  # VM's stack on the way, whichever way it is filled or read.
  def test_lists_of_hundreds_of_thousands_of_values
    count = 300_000
    random = Random.new(2)
    [Array.new(count) { %w[ok failed].sample(random: random).dup }, Array.new(count) { random.rand(1000) }].each do |values|
      list = Marshal.load(Marshal.dump(PackedList.new(values.first(count / 2)))).concat(values.drop(count / 2))
      assert_same_value values, list.to_a, "#{values.first.class}: handed over, then appended to"
      rows = Array.new(count) { random.rand(count) }
      assert_equal values.values_at(*rows.first(1000)), list.values_at(*rows.first(1000))
      assert_equal rows.map { |row| values[row] }, Ractorbench::Store::Columns::Packing.pick(list.to_a, rows)
    end
  end

  # What the packing is for: a long list of real-shaped figures costs a few
  # bytes a value, where an Array costs 8 and more.
  def test_real_shaped_figures_cost_a_few_bytes_a_value
    random = Random.new(3)
    count = 20_000
    {
      "seconds to the microsecond" => [Array.new(count) { random.rand(1..30_000) / 1e6 }, 2],
      "seconds to the microsecond, up to a second" => [Array.new(count) { random.rand(1..999_999) / 1e6 }, 4],
      "a load average" => [Array.new(count) { random.rand(0..400) / 100.0 }, 2],
      "page faults" => [Array.new(count) { random.rand(0..30_000) }, 2],
      "a flag" => [Array.new(count) { random.rand(20).zero? }, 1],
      "offsets in a big file" => [Array.new(count) { |i| 2**31 - count + i }, 4],
      "seconds to the nanosecond" => [Array.new(count) { random.rand }, 8]
    }.each do |what, (values, bytes)|
      values[random.rand(count)] = MISSING # a run without the field packs as well
      list = filled(values, random).trim
      size = Marshal.dump(list).bytesize
      assert_operator size, :<=, count * bytes + 200, "#{what}: #{size} bytes for #{count} values"
      assert_same_value values, list.to_a, what
    end
  end
end
