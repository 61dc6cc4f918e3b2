# frozen_string_literal: true

require_relative "test_helper"
require "objspace"
require_relative "synthetic_results"
require_relative "same_runs"

# A run line like its configuration's others is folded by a template
# (Store::Columns::LineTemplate) without being parsed. That is only a way
# in: every run must read back exactly as parsing its line gives it, value
# and type, whatever the lines hold, and a line the template must not take
# (other spacing, an escape, a value of another type or out of range, a cut
# line) must go the slow way and fare exactly as it did before.
class LineTemplateTest < Minitest::Test
  include TempDir
  include SameRuns

  CONFIGS = [
    {"workload" => "prime", "model" => "threads", "workers" => 2, "messages" => 4, "params" => {}},
    {"workload" => "tarai", "model" => "ractors", "workers" => 2, "messages" => 1, "params" => {"x" => 8, "y" => "é"}},
    {"workload" => "prime", "model" => "serial", "workers" => 1, "messages" => 4, "params" => {}}
  ].freeze

  # Text changes a line must not be taken with, each with what it does.
  MUTATIONS = {
    "a space after a colon" => ->(line) { line.sub('"seq":', '"seq": ') },
    "a name written with an escape" => ->(line) { line.sub(/"workload":"(.)/) { "\"workload\":\"\\u%04x" % $1.ord } },
    "seconds written as an integer" => ->(line) { line.sub(/"whole_time":[^,]*/, '"whole_time":1') },
    "negative seconds" => ->(line) { line.sub(/"whole_time":[^,]*/, '"whole_time":-0.5') },
    "seconds out of range" => ->(line) { line.sub(/"whole_time":[^,]*/, '"whole_time":1e999') },
    "an id that is not the planned one" => ->(line) { line.sub(%r{/rep\d+"}, '/rep999"') },
    "a field more" => ->(line) { line.sub(/\}\n\z/, ",\"extra\":[1]}\n") },
    "fields in another order" => ->(line) { line.sub(/("seq":\d+),("started_at":"[^"]*")/, '\2,\1') },
    "null where a boolean was" => ->(line) { line.sub(/"disturbed":(true|false)/, '"disturbed":null') },
    "a huge integer" => ->(line) { line.sub(/"results":\d+/, '"results":123456789012345678901234567890') },
    "a float of thirty decimals" => ->(line) { line.sub(/"user":[^,]*/, '"user":0.123456789012345678901234567891') },
    "a failed run" => ->(line) { line.sub('"status":"ok"', '"status":"failed","reason":"boom"') },
    "not JSON" => ->(line) { line.sub('{"type"', "{type") },
    "a carriage return before the newline" => ->(line) { line.sub(/\n\z/, "\r\n") },
    "an id written with an escape" => ->(line) { line.sub(/"id":"(.)/) { "\"id\":\"\\u%04x" % $1.ord } }
  }.freeze

  TAIL = {"a failed run" => 1080, "an id that is not the planned one" => 1060}.freeze

  # note: a text of that many characters every line has, for files that
  # span several reads (Store::LineRange::READ) in a few thousand lines.
  def run_line(i, config, rep, rng, note: nil)
    times = -> { [rng.rand.round(rng.rand(1..17)), rng.rand * 1e-5, 1.0e-05, 0.0, rng.rand * 100].sample(random: rng) }
    label = [config["workload"], config["model"], "w#{config["workers"]}", "m#{config["messages"]}",
      config["params"].map { |k, v| "#{k}=#{v}" }.join(",").then { |s| s.empty? ? nil : s }, "ruby"].compact.join("/")
    JSON.generate({"type" => "run", "id" => "#{label}/rep#{rep}", "seq" => i + 1,
      "started_at" => format("2026-01-01T00:%02d:%02d.000Z", i / 60 % 60, i % 60), "load_average_1m" => [0.1, 0.0, 0.25].sample(random: rng),
      # a field of no kind RunRecord knows: any number, -0.0 too
      "skew" => [0.5, -0.0, -1.25, 0.0].sample(random: rng),
      **config, "ruby" => "ruby", "rep" => rep, "whole_time" => times.call + 0.05, "messages_time" => times.call,
      "digest" => "d-#{config["workload"]}", "results" => rng.rand(1..9), "status" => "ok",
      "user" => times.call, "system" => 0.001, "disturbed" => rng.rand < 0.3, **(note ? {"note" => "n" * note} : {})}) + "\n"
  end

  def lines(count, rng, note: nil)
    count.times.map { |i| run_line(i, CONFIGS[i % CONFIGS.size], i / CONFIGS.size + 1, rng, note: note) }
  end

  def write(run_lines)
    header = {"type" => "header", "tool" => "ractorbench", "version" => Ractorbench::VERSION, "command" => "t",
              "created_at" => "2026-01-01T00:00:00Z", "seed" => 1, "machine" => SyntheticResults::MACHINE,
              "rubies" => [{"name" => "ruby", "argv" => ["ruby"], "env" => {}, "info" => {}}], "load" => [],
              "plan" => {"seed" => 1, "runs" => []}}
    path = File.join(@dir, "r.jsonl")
    File.binwrite(path, ([JSON.generate(header) + "\n"] + run_lines).map(&:b).join)
    path
  end

  def test_runs_read_by_templates_are_the_runs_parsed_line_by_line
    rng = Random.new(20_261_126)
    run_lines = lines(1100, rng)
    mutated = MUTATIONS.each_with_index.flat_map do |(what, change), k|
      # After a failed run its configuration has lines of two shapes, and
      # after a renamed id the ids are kept one by one: those near the end,
      # so that the rest shows that the lines after each other change go by
      # template again.
      start = TAIL.fetch(what) { 40 + 60 * k + rng.rand(50) }
      [start, start + 1].map do |n|
        changed = change.call(run_lines[n])
        refute_equal run_lines[n], changed, "the mutation #{what} changed the line"
        run_lines[n] = changed
        n
      end
    end.uniq
    assert_equal 2 * MUTATIONS.size, mutated.size, "each change on lines of its own"
    run_lines[-1] = run_lines[-1].chomp[0...-3] # cut, as by a collector that was killed
    path = write(run_lines)
    expected, skipped = parsed_one_by_one(run_lines)

    [1, 3].each do |readers|
      contents = Ractorbench::Store.read(path, readers: readers)
      assert_same_runs expected.to_a, contents.runs.to_a
      assert_equal skipped.size - 1, contents.skipped.size, "the cut last line is a cut line, not a skipped one"
      assert_equal skipped[0...-1], contents.skipped.map(&:first)
      assert contents.truncated
      # Most lines went by template, none of the changed ones could have.
      assert_operator contents.templated, :<=, run_lines.size - mutated.size - 1
      assert_operator contents.templated, :>=, run_lines.size - 4 * mutated.size - 3 * CONFIGS.size - 20
    end
  end

  # Each change on its own: the changed line is never the template's, so
  # fewer lines go by template than in the same file unchanged.
  def test_no_changed_line_goes_by_template
    clean = lines(40, Random.new(3))
    base = Ractorbench::Store.read(write(clean), readers: 1).templated
    MUTATIONS.each do |what, change|
      changed = clean.dup
      changed[30] = change.call(clean[30])
      assert_operator Ractorbench::Store.read(write(changed), readers: 1).templated, :<, base, what
    end
  end

  # A file is read several megabytes at a time (Store::LineRange::READ):
  # lines cut by a read, and a read holding a line that is not UTF-8 (read
  # line by line then), fare as every other line.
  def test_lines_across_reads
    rng = Random.new(9)
    run_lines = lines(7000, rng, note: 4000)
    run_lines[3100] = run_lines[3100].b.sub('"status":"ok"'.b, "\"status\":\"o\xFFk\"".b)
    path = write(run_lines)
    assert_operator File.size(path), :>, 3 * Ractorbench::Store::LineRange::READ
    expected, skipped = parsed_one_by_one(run_lines)
    contents = Ractorbench::Store.read(path, readers: 1)
    assert_same_runs expected.to_a, contents.runs.to_a
    assert_equal [3102], skipped
    assert_equal [[3102, "not a JSON object"]], contents.skipped
    refute contents.truncated
    assert_operator contents.templated, :>=, 7000 - 3000, "all but the read with the bad byte, and the first lines"
    # A run's start is left in the file and read back from where its line began.
    started = (run_lines[0...3100] + run_lines[3101..]).map { |line| line[/"started_at":"([^"]*)"/, 1] }
    assert_equal started, contents.runs.map { |run| run["started_at"] }
  end

  # A read's lines are folded a configuration at a time (its template and
  # columns still in the cache), each configuration's in file order: the
  # configurations' columns take turns once a read, not once a line. A line
  # whose id names another configuration than its fields was folded with
  # its id's label's lines, out of its own configuration's order: the read
  # starts over, a line at a time, to the runs parsing gives.
  def test_a_reads_lines_are_folded_a_configuration_at_a_time
    run_lines = lines(3000, Random.new(12))
    expected = parsed_one_by_one(run_lines).first.to_a
    assert_equal [1, CONFIGS.size], folding(write(run_lines), expected)
    victim = 1501 # a tarai line, its id given the next prime one's label
    run_lines[victim] = run_lines[victim].sub(%r{"id":"[^"]*/rep}, '"id":"prime/serial/w1/m4/ruby/rep')
    expected = parsed_one_by_one(run_lines).first.to_a
    reads, turns = folding(write(run_lines), expected)
    assert_equal 2, reads, "started over"
    assert_operator turns, :>, 2000, "a line at a time"
  end

  # A collection that was interrupted keeps a mark before each run: the
  # marks never reach a table, and the runs around them are folded a
  # configuration at a time all the same. A run line with no label (its
  # fields in another order) folds what was held before it, and walks only
  # the configurations with lines held (walking every configuration seen so
  # far, at every such line, took a hundred thousand runs of a thousand
  # configurations 12 s against 5).
  def test_lines_between_runs_cost_no_walk_of_every_configuration
    configs = (1..40).map { |m| CONFIGS.first.merge("messages" => m) }
    runs = (0...2000).map { |i| run_line(i, configs[i % configs.size], i / configs.size + 1, Random.new(i)) }
    marked = runs.flat_map { |line| [JSON.generate({"type" => "started", "id" => line[/"id":"([^"]*)"/, 1]}) + "\n", line] }
    assert_equal [1, configs.size], folding(write(marked), parsed_one_by_one(marked).first.to_a)
    unlabelled = runs.each_with_index.map { |line, i| i.odd? ? line.sub(/\A\{"type":"run",("id":"[^"]*"),/, '{\1,"type":"run",') : line }
    blocks = 0
    trace = TracePoint.new(:b_call) { |tp| blocks += 1 if tp.path.end_with?("store/line_range.rb") }
    contents = trace.enable { Ractorbench::Store.read(write(unlabelled), readers: 1) }
    assert_same_runs parsed_one_by_one(unlabelled).first.to_a, contents.runs.to_a
    assert_operator blocks, :<, 2 * unlabelled.size, "blocks run in the reader for #{unlabelled.size} lines"
  end

  # How many times the file's run lines were read, and how many turns the
  # configurations' columns took at folding them; the runs checked.
  def folding(path, expected)
    columns = []
    reads = 0
    trace = TracePoint.new(:call) do |tp|
      columns << tp.self if tp.method_id == :add_scanned && tp.self.is_a?(Ractorbench::Store::Columns)
      reads += 1 if tp.method_id == :start && tp.self.is_a?(Ractorbench::Store::LineRange)
    end
    contents = trace.enable { Ractorbench::Store.read(path, readers: 1) }
    assert_same_runs expected, contents.runs.to_a
    [reads, columns.chunk_while(&:equal?).count]
  end

  # Every read goes into the same buffer: garbage of a megabyte a read,
  # which only a GC frees, was a third of a reader's peak on Ruby 4.0.
  def test_reads_reuse_one_buffer
    path = write(lines(12_000, Random.new(5), note: 3000))
    chunk = Ractorbench::Store::LineRange::READ
    assert_operator File.size(path), :>, 4 * chunk
    big = []
    GC.start
    GC.disable # every String the reading makes is still here after it
    ObjectSpace.trace_object_allocations do
      Ractorbench::Store.read(path, readers: 1)
      ObjectSpace.each_object(String) do |string|
        next unless ObjectSpace.allocation_sourcefile(string).to_s.include?("ractorbench/store")
        big << string if ObjectSpace.memsize_of(string) >= chunk / 2
      end
    end
    assert_equal 1, big.size, big.map { |string| ObjectSpace.allocation_sourceline(string) }.inspect
  ensure
    GC.enable
  end

  # A line longer than a read (blanks JSON allows, before its closing
  # brace) is read whole wherever it falls, and a cut last line that long
  # is the cut run: by one reader, by two, and through a pipe, which is
  # read as it comes.
  def test_lines_longer_than_a_read
    run_lines = lines(3000, Random.new(11))
    pad = " " * (Ractorbench::Store::LineRange::READ + 100)
    [0, 1500, 2998].each { |i| run_lines[i] = run_lines[i].sub(/\}\n\z/) { "#{pad}}\n" } }
    run_lines[2999] = run_lines[2999].sub(/\}\n\z/) { pad }
    expected, skipped = parsed_one_by_one(run_lines[0..2998])
    assert_empty skipped
    path = write(run_lines)
    fifo = File.join(@dir, "fifo")
    File.mkfifo(fifo)
    writer = Thread.new { File.binwrite(fifo, File.binread(path)) }
    [[path, 1], [path, 2], [fifo, nil]].each do |from, readers|
      contents = Ractorbench::Store.read(from, readers: readers)
      assert_same_runs expected.to_a, contents.runs.to_a
      assert_empty contents.skipped, from
      assert contents.truncated, from
    end
    writer.join
  end

  # A file cut shorter while it is read (its size when reading began is
  # past its end now): its last line, without a newline, is the run a
  # collector was writing, not damage.
  def test_a_file_cut_while_read_ends_in_a_cut_run
    run_lines = lines(50, Random.new(4))
    run_lines[-1] = run_lines[-1][0, 40]
    path = write(run_lines)
    body = File.open(path, &:gets).bytesize
    was = File.size(path) + 4096
    result = Ractorbench::Store::LineRange.read(path, body, was, Ractorbench::Store::Source.new(path), was)
    assert result.truncated
    assert_empty result.skipped
    assert_equal 49, result.table.size
  end

  # Exact decimal reading: each Float the writer can print reads back as
  # itself, on the template's way as on JSON's.
  def test_floats_read_back_exactly
    rng = Random.new(7)
    run_lines = lines(300, rng)
    floats = Array.new(300) { [rng.rand, rng.rand * 1e-5, rng.rand * 1e6, rng.rand(10**6) / 1e3].sample(random: rng) }
    run_lines = run_lines.each_with_index.map { |line, i| line.sub(/"user":[^,]*/, "\"user\":#{floats[i]}") }
    contents = Ractorbench::Store.read(write(run_lines), readers: 1)
    assert_operator contents.templated, :>=, 280
    contents.runs.each_with_index { |run, i| assert_same_value floats[i], run["user"], "run #{i}" }
  end
end
