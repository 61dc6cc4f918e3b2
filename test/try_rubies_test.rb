# frozen_string_literal: true

require "test_helper"

# `try --ruby A --ruby B` sweeps both, nothing dropped: a try on each Ruby,
# each with its results file (named after its Ruby), then each model on B
# against A as compare tests them, and the command that compares every
# configuration, whole on its line.
class TryRubiesTest < Minitest::Test
  include CLIHelper
  include TempDir

  # A Ruby other than the one running the tests.
  def other_ruby
    ["/opt/rubies/ruby-4.0.0/bin/ruby", "/usr/bin/ruby", "/opt/rubies/ruby-3.4.0/bin/ruby"]
      .find { |r| File.executable?(r) && File.realpath(r) != File.realpath(RbConfig.ruby) }
  end

  def test_two_rubies_are_each_swept_and_compared_model_by_model
    other = other_ruby
    skip("no second Ruby installed (shared/rubies/install.sh)") unless other

    result = ractorbench("try", File.join(ROOT, "examples", "json_parse.rb"), "--ruby", RbConfig.ruby, "--ruby", other,
      "-m", "threads", "--workers", "1,2", "--reps", "2", "--items", "30", chdir: @dir, env: {"COLUMNS" => "200"})
    assert_equal 0, result.code, result.out + result.err
    files = Dir[File.join(@dir, "ractorbench-try-json_parse-*.jsonl")].sort
    assert_equal 2, files.size, "a results file for each Ruby"
    rubies = files.map { |f| JSON.parse(File.open(f, &:readline))["rubies"].map { |r| r.dig("info", "description") } }
    assert_equal 2, rubies.flatten.uniq.size, "each file ran its own Ruby: #{rubies.inspect}"
    assert(files.all? { |f| runs_in(f).size == 6 }, "serial, and threads at W=1 and W=2, twice each, in each file")
    assert_equal 2, result.out.scan(/^Recommendation: /).size, "each Ruby's screen ends with its answer"
    out = result.out
    assert_match(/^Which Ruby: each model's time on each Ruby against \S+'s, at the most workers both swept/, out)
    assert_match(/^  serial W=1: \S+ .*on \S+, \S+ .*on \S+: /, out)
    assert_match(/^  threads W=2: \S+ .*on \S+, \S+ .*on \S+: /, out)
    command = result.out.lines.map(&:chomp).find { |l| l.start_with?("    ractorbench compare ") }
    assert_equal "    ractorbench compare #{files.map { |f| File.basename(f) }.sort.join(" ")}".split.sort, command.split.sort
    compared = ractorbench("compare", *command.split.drop(2), chdir: @dir)
    assert_includes [0, 3], compared.code, compared.err
    assert_match(/^What differs: the Ruby/, compared.out)
  end
end
