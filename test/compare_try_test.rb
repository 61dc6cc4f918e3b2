# frozen_string_literal: true

require "test_helper"
require "digest"
require "json"

# Two tries of one module compare: their configurations pair by module,
# item count, model and worker count (not by the file's path, nor by the
# check's time per item, which every try measures afresh), and compare says
# what differs besides time: the file's contents, the Ruby, the machine.
# Its table fits the terminal, 80 to 200 columns.
class CompareTryTest < Minitest::Test
  include CLIHelper
  include TempDir

  WORK = <<~RUBY
    module Tally
      def self.work(item)
        sum = 0
        %d.times { |i| sum += (item * i) %% 7 }
        [item, sum]
      end
    end
  RUBY

  MODELS = %w[threads processes-split ractors-split].freeze

  def try(name, loops)
    dir = File.join(@dir, name)
    FileUtils.mkdir_p(dir)
    file = File.join(dir, "tally.rb")
    File.write(file, format(WORK, loops))
    out = File.join(@dir, "#{name}.jsonl")
    result = ractorbench("try", file, "-m", MODELS.join(","), "--workers", "1,2", "--reps", "2", "--items", "60", "-o", out)
    assert_equal 0, result.code, result.out + result.err
    quiet(out)
    [file, out]
  end

  # This machine is shared: runs other programs disturbed would leave
  # nothing to judge, and judging is not what is tested here.
  def quiet(path)
    lines = File.readlines(path).map { |l| JSON.parse(l) }
    lines.each { |r| r["disturbed"] = false if r["type"] == "run" }
    File.write(path, lines.map { |r| JSON.generate(r) }.join("\n") + "\n")
  end

  def test_an_edited_file_pairs_every_model_and_worker_count_and_the_change_is_named
    before_file, before = try("before", 300)
    after_file, after = try("after", 900)
    configurations = (["serial"].product([1]) + MODELS.product([1, 2])).sort

    json = ractorbench("compare", before, after, "--format", "json")
    assert_equal 0, json.code, json.err
    rows = JSON.parse(json.out)["against"].first["rows"]
    key = JSON.parse(json.out)["key"]
    assert_equal configurations, rows.map { |r| [r["key"][key.index("model")], r["key"][key.index("workers")]] }.sort
    assert(rows.all? { |r| r["key"][key.index("params")] == "module=Tally" }, "paired by module, not by path or the check's time")

    [80, 100, 132, 200].each do |width|
      text = ractorbench("compare", before, after, env: {"COLUMNS" => width.to_s})
      assert_equal 0, text.code, text.err
      wide = text.out.lines.map(&:chomp).select { |l| l.length > width }
      assert_empty wide, "at #{width} columns"
      digests = [before_file, after_file].map { |f| Digest::SHA1.file(f).hexdigest[0, 12] }
      assert_match(/^What differs: the work \(A: Tally in tally\.rb, sha1 #{digests[0]}; B: Tally in tally\.rb, sha1 #{digests[1]}\)/,
        text.out.gsub(/\n +/, " "))
      assert_match(/^The same on both: the Ruby \(ruby .*\), the machine \(/, text.out.gsub(/\n +/, " "))
      MODELS.each { |m| assert_equal 2, text.out.scan(/ #{m} +\S+ms/).size, "#{m}: before and after at W=1 and W=2 (#{width})" }
    end
  end

  def test_two_tries_of_the_same_file_pair_and_say_nothing_differs
    file, first = try("same", 300)
    second = File.join(@dir, "again.jsonl")
    assert_equal 0, ractorbench("try", file, "-m", MODELS.join(","), "--workers", "1,2", "--reps", "2", "--items", "60", "-o", second).code
    quiet(second)
    result = ractorbench("compare", first, second, env: {"COLUMNS" => "100"})
    assert_equal 0, result.code, result.err
    refute_match(/What differs/, result.out)
    assert_match(/^The same on both: the work \(Tally in tally\.rb, sha1 \h{12}\), the Ruby/, result.out)
  end
end
