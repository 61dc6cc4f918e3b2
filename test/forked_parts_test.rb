# frozen_string_literal: true

require_relative "test_helper"
require_relative "synthetic_results"

# Work done in forked parts (Ractorbench::ForkedParts: a report's rows of
# many runs) must give what doing it in one process gives,
# and a part whose process dies costs time, never an answer.
class ForkedPartsTest < Minitest::Test
  include TempDir

  def test_answers_come_back_in_order_from_their_own_processes
    parent = Process.pid
    answers = Ractorbench::ForkedParts.map([1, 2, 3, 4]) { |part| [part, Process.pid] }
    assert_equal [1, 2, 3, 4], answers.map(&:first)
    pids = answers.map(&:last)
    assert_equal parent, pids.first, "the first part is done here"
    assert_equal 4, pids.uniq.size, "each other part in a process of its own"
  end

  # An answer is taken in as soon as its child has it, not in the parts'
  # order: the first part's child waits until the second's has been reaped
  # (a zombie until the parent takes its answer), which in parts' order it
  # never would be, and gives up after 20 s.
  def test_an_answer_is_taken_in_when_it_is_ready_not_in_order
    pid_file = File.join(@dir, "second.pid")
    answers = Ractorbench::ForkedParts.map([0, 1, 2]) do |part|
      next :here if part.zero?

      next File.write(pid_file, Process.pid) && :second if part == 2

      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 20
      reaped = loop do
        break false if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
        next sleep(0.01) unless File.size?(pid_file)

        Process.kill(0, Integer(File.read(pid_file)))
        sleep 0.01
      rescue Errno::ESRCH
        break true
      end
      reaped ? :first_after_second_was_taken : :first_gave_up
    end
    assert_equal %i[here first_after_second_was_taken second], answers
  end

  def test_a_part_whose_process_dies_is_done_here
    parent = Process.pid
    answers = Ractorbench::ForkedParts.map([1, 2, 3]) do |part|
      Process.kill(:KILL, Process.pid) if part == 2 && Process.pid != parent
      [part * 10, Process.pid]
    end
    assert_equal [10, 20, 30], answers.map(&:first)
    assert_equal parent, answers[1].last, "the killed part was done again here"
    refute_equal parent, answers[2].last
  end

  # Rows made by three processes are the rows made by one, byte for byte;
  # the groups are dealt into parts of about as many runs each, and of as
  # many of each model's runs (give or take a group of 18).
  def test_a_reports_rows_in_parts_are_the_rows_made_in_one_process
    samples = (1..12).flat_map do |w|
      %w[serial threads processes].map do |model|
        [["prime", model, w, 100, "ruby"], SyntheticResults.draws(6 + w, median: 0.01 * w, seed: w)]
      end
    end.to_h
    path = SyntheticResults.write(File.join(@dir, "r.jsonl"), samples)
    rows = ->(processes) { Ractorbench::Analysis::Rows.for(Ractorbench::Analysis.new(Ractorbench::Store.read(path)), processes: processes) }
    one = rows.call(1)
    assert_equal 36, one.size
    [2, 3].each { |processes| assert_equal Marshal.dump(one), Marshal.dump(rows.call(processes)), "#{processes} processes" }

    groups = Ractorbench::Analysis::Rows.groups(Ractorbench::Analysis.new(Ractorbench::Store.read(path)))
    parts = Ractorbench::Analysis::Rows.parts(groups, 3)
    assert_equal 3, parts.size
    assert_equal groups.map(&:object_id).sort, parts.flatten(1).map(&:object_id).sort, "every group once"
    groups.map(&:model).uniq.each do |model|
      of_model = parts.map { |part| part.select { |g| g.model == model }.sum { |g| g.columns.size } }
      assert_operator of_model.max - of_model.min, :<=, 18, "#{model}'s runs dealt alike to every part: #{of_model}"
    end
    runs = parts.map { |part| part.sum { |g| g.columns.size } }
    assert_operator runs.max - runs.min, :<=, 2 * 18, "parts of about as many runs: #{runs}"
  end

  # What a row shows of a run that the store leaves in the file (an
  # unsupported configuration's reason) is read back from the run's line in
  # the part's own process, with its own handle on the file: a handle shared
  # with the parent, which has read lines back already, would share its
  # position, and read another run's line.
  def test_rows_in_parts_read_back_their_own_runs_lines
    samples = (1..12).to_h { |w| [["prime", "serial", w, 100, "ruby"], SyntheticResults.draws(6, median: 0.01 * w, seed: w)] }
    path = SyntheticResults.write(File.join(@dir, "r.jsonl"), samples)
    unsupported = (1..12).flat_map do |w|
      (1..3).map do |rep|
        {"type" => "run", "id" => "prime/threads/w#{w}/m100/ruby/rep#{rep}", "workload" => "prime", "model" => "threads",
         "workers" => w, "messages" => 100, "params" => {}, "ruby" => "ruby", "rep" => rep, "status" => "unsupported",
         "reason" => "threads at #{w} unsupported"}
      end
    end
    File.write(path, unsupported.map { |r| JSON.generate(r) + "\n" }.join, mode: "a")
    analysis = Ractorbench::Analysis.new(Ractorbench::Store.read(path))
    assert_equal "threads at 1 unsupported", analysis.groups.find { |g| g.model == "threads" }.unsupported_reason, "read back here first"
    reasons = Ractorbench::Analysis::Rows.for(analysis, processes: 3).select { |r| r.model == "threads" }.map(&:unsupported)
    assert_equal (1..12).map { |w| "threads at #{w} unsupported" }, reasons

    # Every part reading lines back at once, over and over: each its own.
    runs = analysis.runs.to_a
    read_back = Ractorbench::ForkedParts.map([0, 1, 2]) do |part|
      (1..40).flat_map { runs.rotate(part * 7).map { |run| run.to_h["type"] == "run" } }.tally # "type" is left in the file
    end
    assert_equal [{true => runs.size * 40}] * 3, read_back
  end

  # A forked part's rows leave their garbage collected as they go, every
  # so many runs (the heap it shares does not grow for it): the same rows,
  # and a collection each time the count of runs passes a multiple. With
  # the heap's own collections off, only those asked for are counted.
  def test_rows_made_in_a_part_collect_their_garbage_every_so_many_runs
    samples = (1..4).to_h { |w| [["prime", "threads", w, 10, "ruby"], SyntheticResults.draws(20, median: 0.01 * w, seed: w)] }
    analysis = Ractorbench::Analysis.new(Ractorbench::Store.read(SyntheticResults.write(File.join(@dir, "r.jsonl"), samples)))
    groups = Ractorbench::Analysis::Rows.groups(analysis)
    assert_equal [20] * 4, groups.map { |g| g.columns.size }
    begin
      GC.disable
      before = GC.count
      rows = Ractorbench::Analysis::Rows.made(groups, analysis.header, every: 30)
      collected = GC.count - before
    ensure
      GC.enable
    end
    assert_equal 2, collected, "runs 20, 40, 60, 80: past 30 at the 2nd group and past 60 at the 3rd"
    assert_equal Marshal.dump(groups.map { |g| Ractorbench::Analysis::Row.for(g, analysis.header) }), Marshal.dump(rows)
  end

  # What decides making rows in parts is the work: many runs, or many runs
  # whose speedup intervals are resampled (fewer than 100 a side), not
  # merely many runs whose intervals come from order statistics.
  def test_rows_are_made_in_parts_when_resampling_would_be_long
    analysis = lambda do |reps|
      samples = (1..10).flat_map do |w|
        %w[serial threads processes].map { |model| [["prime", model, w, 10, "ruby"], SyntheticResults.draws(reps, median: 0.01 * w, seed: w)] }
      end.to_h
      Ractorbench::Analysis.new(Ractorbench::Store.read(SyntheticResults.write(File.join(@dir, "r#{reps}.jsonl"), samples)))
    end
    rows = Ractorbench::Analysis::Rows
    assert_equal 30 * 70, rows.resampled_runs(analysis.call(70))
    assert_equal rows.processes, rows.processes_for(analysis.call(70))
    assert_equal 0, rows.resampled_runs(analysis.call(100))
    assert_equal 1, rows.processes_for(analysis.call(100))
    assert_equal 1, rows.processes_for(analysis.call(60)), "1,800 resampled runs"
  end
end
