# frozen_string_literal: true

require "test_helper"

# Fibers that do not overlap waiting work are put down to their cause, as
# the check observed it on the Ruby under test (Harness::Try::FiberProbe:
# did another fiber run while work waited?), never to the data: a wait no
# scheduler sees (libc's usleep, through Fiddle) is named on every Ruby, a
# sleep every scheduler hooks on none.
class FiberWaitTest < Minitest::Test
  include CLIHelper
  include TempDir

  BLOCKS = "test/fixtures/try/waits_outside_ruby.rb"
  CAUSE = /fibers: this Ruby's Fiber scheduler \(async [\d.]+\) does not overlap the wait in work: in the check, while work waited [\d.]+ ms on one item, no other fiber ran/

  def rubies = [RbConfig.ruby, *Dir["/opt/rubies/*/bin/ruby"]]

  def test_the_check_names_a_wait_the_scheduler_cannot_overlap_on_every_ruby
    rubies.each do |ruby|
      blocked = ractorbench("try", BLOCKS, "--check", "--ruby", ruby, chdir: ROOT)
      assert_equal 1, blocked.code, "#{ruby}: ractors cannot run it (a Fiddle function): #{blocked.out}#{blocked.err}"
      assert_match(CAUSE, blocked.out.gsub(/\n {4,}/, " "), ruby)
      overlapped = ractorbench("try", "examples/slow_service.rb", "--check", "--ruby", ruby, chdir: ROOT)
      assert_equal 0, overlapped.code, overlapped.err
      refute_match(/fibers:/, overlapped.out, "#{ruby}: sleep is a wait every scheduler overlaps")
    end
  end

  def test_the_sweep_blames_the_scheduler_not_the_data
    result = ractorbench("try", BLOCKS, "-m", "threads,fibers", "--workers", "1,2", "--reps", "2", "--items", "8",
      "-o", File.join(@dir, "blocks.jsonl"), chdir: ROOT, env: {"COLUMNS" => "100"})
    assert_equal 0, result.code, result.out + result.err
    out = result.out.gsub(/\n {4,}/, " ")
    assert_match(/^  - fibers cannot help this work on this Ruby: this Ruby's Fiber scheduler .* does not overlap the wait in work/, out)
    refute_match(/says little about fibers/, out)
    out.lines.grep(/^UNEVEN: fibers/).each { |line| assert_match(/the first worker took the items while work held the thread: this Ruby's Fiber scheduler/, line) }
  end
end
