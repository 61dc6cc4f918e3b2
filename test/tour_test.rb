# frozen_string_literal: true

require "test_helper"

# The tour's default: repetitions until the intervals settle, within a
# budget (--reps auto:90), as its results header records; stopped with
# Ctrl-C once it has begun, it keeps what it recorded.
class TourTest < Minitest::Test
  include CLIHelper
  include TempDir

  def started_tour(*args)
    out = File.join(@dir, "tour.jsonl")
    pid = Process.spawn(RbConfig.ruby, EXE, "tour", *args, "-o", out, out: File::NULL, err: File::NULL)
    header = nil
    200.times do
      header = results_lines(out).first if File.size?(out) && File.read(out).include?("\n")
      break if header

      sleep 0.1
    end
    header
  ensure
    Process.kill(:INT, pid)
    Process.wait(pid)
  end

  def test_without_reps_the_tour_repeats_until_intervals_settle
    header = started_tour
    refute_nil header, "the tour wrote its header"
    assert_equal "auto:90", header["reps"]
  end

  def test_reps_given_are_kept
    header = started_tour("--reps", "2")
    assert_equal 2, header["reps"]
  end
end
