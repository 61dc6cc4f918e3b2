# frozen_string_literal: true

require_relative "test_helper"

# A big read frees most of what it allocated; SpareMemory hands it back to
# the system (glibc's malloc_trim), which free alone does not. Measured in a
# child Ruby of its own, by its resident memory, not by a clock.
class SpareMemoryTest < Minitest::Test
  include CLIHelper

  SCRIPT = <<~RUBY
    require "ractorbench/spare_memory"
    rss = -> { File.read("/proc/self/status")[/VmRSS:\\s+(\\d+)/, 1].to_i / 1024 }
    # Many small buffers, every other one kept: the freed ones are holes
    # among live ones, which free leaves with malloc.
    kept = []
    300_000.times { |i| s = "x" * 1000; kept << s if i.odd? }
    kept = nil
    GC.start
    freed = rss.()
    Ractorbench::SpareMemory.trim
    puts [freed, rss.()].join(" ")
  RUBY

  def test_freed_memory_goes_back_to_the_system
    skip "malloc_trim is glibc's" unless RUBY_PLATFORM.match?(/linux(-gnu)?\z/) && File.exist?("/proc/self/status")

    out, err, status = ruby_script(SCRIPT).to_a
    assert status.success?, err
    freed, trimmed = out.split.map(&:to_i)
    assert_operator freed, :>, 150, "the buffers were resident (#{freed} MB)"
    assert_operator trimmed, :<, freed - 80, "trimmed: #{freed} MB resident after GC, #{trimmed} MB after trim"
  end

  def test_settle_and_release_leave_the_heap_working
    out, err, status = ruby_script(<<~RUBY).to_a
      require "ractorbench/spare_memory"
      a = Array.new(10_000) { |i| "v\#{i}" }
      Ractorbench::SpareMemory.settle
      Ractorbench::SpareMemory.release
      Ractorbench::SpareMemory.after_full_gc
      puts a.sum { |s| s.delete_prefix("v").to_i }
    RUBY
    assert status.success?, err
    assert_equal (0...10_000).sum.to_s, out.strip
  end
end
