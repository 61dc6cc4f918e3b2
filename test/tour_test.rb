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

  # The first run answers: its last lines name, for each experiment, the
  # fastest model at each size with its speedup (or that serial was) and how
  # sure that is; no warning asks for an option the tour refuses. Its file
  # alone gives that ending again.
  def test_the_tour_ends_with_the_answer_and_only_advice_it_can_take
    out = File.join(@dir, "tour.jsonl")
    result = ractorbench("--reps", "1", "-o", out, env: {"COLUMNS" => "200"})
    assert_includes [0, 1], result.code, result.err
    # Wrapped lines continue under a deeper indent: joined, each is one.
    answer = result.out.gsub(/\n {4,}/, " ").lines.map(&:chomp).drop_while { |l| !l.start_with?("The answer on this machine") }
    refute_empty answer, result.out
    told = answer.drop(1)
    {"Ractor Basic Benchmarking" => "prime", "Exploring Ruby Ractors" => "fib", "Ractor reconsidered" => "alloc"}.each do |title, workload|
      line = told.find { |l| l.start_with?("  #{title}: #{workload}") }
      refute_nil line, "#{title} answers for #{workload}:\n#{answer.join("\n")}"
      assert_match(/: (\S+ fastest, \d+\.\d\d× serial|serial fastest)/, line)
      assert_match(/\(n=1\); /, line)
    end
    warnings = result.out.lines.grep(/\AWARNING:/)
    %w[--workers --messages --scale --suite].each { |option| refute(warnings.any? { |w| w.include?(option) }, "#{option} in: #{warnings.join}") }
    assert_operator result.err.lines.grep(/--reps auto/).size, :<=, 1, "repetition progress is one line"

    # The file alone prints it again (the README's first run shows a recorded tour this way).
    again = ractorbench("report", out, "--format", "summary", env: {"COLUMNS" => "200"})
    assert_equal result.out, again.out, "report --format summary of the tour's file is what the tour printed at its end"
  end

  # Every line of the tour fits COLUMNS (80 here, as it ran; 100 as its file
  # prints it again, the same ending), and it ends with what it means for
  # the reader's own code and the command to try theirs.
  def test_every_line_fits_and_the_tour_closes_with_what_it_means_for_your_code
    out = File.join(@dir, "tour.jsonl")
    result = ractorbench("--reps", "1", "-o", out, env: {"COLUMNS" => "80"})
    assert_includes [0, 1], result.code, result.err
    screens = {80 => result.out + result.err, 100 => ractorbench("report", out, env: {"COLUMNS" => "100"}).out}
    screens.each do |width, text|
      wide = text.lines.map(&:chomp).select { |l| l.length > width }
      assert_empty wide, "lines wider than #{width} columns"
      closing = text.gsub(/\n  (?! )/, " ")[/^What this means for your code: .*/]
      refute_nil closing, "the closing paragraph at #{width}:\n#{text}"
      assert_match(/CPU-bound pure Ruby \(.*\) ran fastest (with|serially)/, closing)
      assert_match(/allocation-heavy work \(alloc\) ran fastest/, closing)
      assert_match(/Work that waits \(IO, a service\) was not measured here/, closing)
      assert_match(/^    ractorbench try my_work\.rb$/, text, "the command on a line of its own")
    end
  end
end
