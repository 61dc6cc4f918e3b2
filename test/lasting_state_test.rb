# frozen_string_literal: true

require "test_helper"
require "json"

# State that outlives a call of work (a memo Hash in a constant, a call
# counter in a module's instance variable, a global) is found by running
# work in the check, named with where it is, and a recommendation of forked
# processes says those changes stay in the workers and what to do.
class LastingStateTest < Minitest::Test
  include CLIHelper
  include TempDir

  MEMO = "test/fixtures/try/memo_counter.rb"

  def state_line(out) = out.gsub(/\n {4,}/, " ").lines.grep(/^  state: /).first.to_s

  def test_the_check_names_each_change_and_where_it_is
    [RbConfig.ruby, *Dir["/opt/rubies/*/bin/ruby"]].each do |ruby|
      result = ractorbench("try", MEMO, "--check", "--ruby", ruby, chdir: ROOT)
      line = state_line(result.out)
      assert_match(/work changes state that outlives the call: /, line, "#{ruby}:\n#{result.out}")
      assert_match(%r{@calls of MemoCounter \(0 → \d+, #{MEMO}:8\)}o, line, ruby)
      assert_match(%r{MemoCounter::MEMO \(a Hash, 0 → \d+ entries, #{MEMO}:7\)}o, line, ruby)
      assert_match(%r{\$memo_counter_last \(unset → \d+, #{MEMO}:16\)}o, line, ruby)
      assert_match(/forked processes and ractors change their own copies of it, never this process's/, line)
    end
  end

  def test_work_that_keeps_nothing_names_nothing
    result = ractorbench("try", "examples/json_parse.rb", "--check", chdir: ROOT)
    assert_equal 0, result.code, result.err
    refute_match(/state:/, result.out)
  end

  # The sweep's processes ran clearly faster in the file (a shared machine
  # cannot promise it): the recommendation of forked processes says what
  # stays in the workers.
  def test_a_forked_recommendation_says_the_state_stays_in_the_workers
    results = File.join(@dir, "memo.jsonl")
    result = ractorbench("try", MEMO, "-m", "processes", "--workers", "2", "--reps", "2", "--items", "60", "-o", results,
      chdir: ROOT)
    assert_equal 0, result.code, result.out + result.err
    assert_match(/state: work changes state that outlives the call: @calls of MemoCounter/, result.out.gsub(/\n {4,}/, " "))
    header, *runs = File.readlines(results).map { |l| JSON.parse(l) }
    serial = runs.select { |r| r["model"] == "serial" }.map { |r| r["messages_time"] }.min
    runs.each do |r|
      r["disturbed"] = false
      r["messages_time"] = serial / 1.9 if r["model"] == "processes"
    end
    File.write(results, [header, *runs].map { |r| JSON.generate(r) }.join("\n") + "\n")

    screen = ractorbench("report", results, chdir: ROOT, env: {"COLUMNS" => "100"}).out.gsub(/\n {4,}/, " ")
    assert_match(/^Recommendation: use forked processes/, screen)
    assert_match(/^  - work changes state that outlives the call \(@calls of MemoCounter \(0 → \d+, .*MemoCounter::MEMO .*\): with forked workers those changes stay in the workers and never reach the caller .* return what the caller needs in the results/, screen)
  end
end
