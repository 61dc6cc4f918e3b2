# frozen_string_literal: true

require_relative "test_helper"
require_relative "synthetic_results"

# Store.read folds each run line into its configuration's columns: memory
# that follows the configurations and the figures read, not the lines.
# What goes in must come back out the same, field by field, whatever the
# lines hold; and what stays in memory must not grow a Hash per run.
class RunTableTest < Minitest::Test
  include TempDir
  include CLIHelper

  def base_run(i, rep)
    {"type" => "run", "id" => "prime/threads/w2/m4/ruby/rep#{rep}", "seq" => i + 1,
     "started_at" => "2026-01-01T00:00:0#{i % 10}.000Z", "load_average_1m" => 0.1, "workload" => "prime",
     "model" => "threads", "workers" => 2, "messages" => 4, "params" => {}, "ruby" => "ruby", "rep" => rep,
     "whole_time" => 0.5 + i / 100.0, "messages_time" => 0.25 + i / 100.0, "digest" => "d1", "status" => "ok",
     "user" => 0.4, "system" => 0.01, "disturbed" => false}
  end

  # Lines that differ from their neighbours in every way a real file can:
  # a field only some runs have, a null, an id that is not the planned one,
  # a failed run with its stderr, a second configuration with parameters.
  def varied_lines
    runs = (0...8).map { |i| base_run(i, i + 1) }
    runs[2]["worker_jobs"] = [3, 1]
    runs[3]["digest"] = nil
    runs[4]["id"] = "renamed by hand"
    runs[5].delete("disturbed")
    runs[6].merge!("status" => "failed", "reason" => "boom", "stderr_tail" => ["line 1", "line 2"])
    runs[6].delete("messages_time")
    runs << base_run(8, 1).merge("id" => "tarai/serial/w1/m2/x=8/ruby/rep1", "workload" => "tarai",
      "model" => "serial", "workers" => 1, "messages" => 2, "params" => {"x" => 8})
    runs << base_run(9, 2).merge("started_at" => nil, "messages_time" => 0.25)
    runs
  end

  def write(runs)
    path = File.join(@dir, "r.jsonl")
    header = {"type" => "header", "tool" => "ractorbench", "version" => Ractorbench::VERSION, "command" => "t",
              "created_at" => "2026-01-01T00:00:00Z", "seed" => 1, "machine" => SyntheticResults::MACHINE,
              "rubies" => [{"name" => "ruby", "argv" => ["ruby"], "env" => {}, "info" => {}}], "load" => [],
              "plan" => {"seed" => 1, "runs" => []}}
    File.write(path, ([header] + runs).map { |r| JSON.generate(r) + "\n" }.join)
    path
  end

  def test_every_field_of_every_run_reads_back_as_written
    runs = varied_lines
    table = Ractorbench::Store.read(write(runs)).runs
    assert_equal runs.size, table.size
    assert_equal 2, table.columns.size, "one Columns per configuration"
    runs.zip(table.to_a).each do |line, view|
      assert_equal line, view.to_h, "to_h is the line as written"
      line.each { |k, v| v.nil? ? assert_nil(view[k], k) : assert_equal(v, view[k], "#{line["id"]}: #{k}") }
      line.each_key { |k| assert view.key?(k), "#{line["id"]} has #{k}" }
      refute view.key?("not_a_field")
      assert_nil view["not_a_field"]
    end
    refute table[5].key?("disturbed"), "a field a line lacked is absent, not null"
    assert table[3].key?("digest"), "a field a line had as null is present"
    assert_equal [nil, "d1"], [table[3]["digest"], table[2]["digest"]]
  end

  # Lines like their neighbours are checked as closely as the first: a bad
  # value costs its line, and a printed field is made printable.
  def test_lines_like_their_neighbours_are_checked_as_closely
    runs = (0...8).map { |i| base_run(i, i + 1).merge("reason" => "fine #{i}") }
    runs[3]["messages_time"] = "fast"
    runs[4]["reason"] = "red \e[31mtext"
    runs[5]["whole_time"] = -1
    runs[6]["rep"] = 0
    contents = Ractorbench::Store.read(write(runs))
    assert_equal [[5, "messages_time is not a number of seconds"], [7, "whole_time is not a number of seconds"],
      [8, "rep is not a positive integer under 10^18"]], contents.skipped
    assert_equal 5, contents.runs.size
    assert_equal "red \\e[31mtext", contents.runs[3]["reason"]
    assert_equal runs.values_at(0, 1, 2, 4, 7).map { |r| r["messages_time"] }, contents.runs.map { |r| r["messages_time"] }
    # What a bad line's fields before its bad one went into is taken back.
    %w[seq whole_time].each do |field|
      assert_equal runs.values_at(0, 1, 2, 4, 7).map { |r| r[field] }, contents.runs.map { |r| r[field] }, field
    end
  end

  # A list is checked at once by its least and greatest number where that
  # tells, else value by value: a zero is a reading, a time above 0 but under
  # a nanosecond is not; a null count, an unknown status or a word for a
  # boolean costs its line as surely as a first line's would.
  def test_a_list_checked_at_once_finds_each_bad_value
    runs = (0...9).map { |i| base_run(i, i + 1).merge("system" => 0.0) }
    runs[2]["system"] = 5e-10
    runs[4]["seq"] = nil
    runs[5]["status"] = "fine"
    runs[6]["disturbed"] = "yes"
    runs[7]["load_average_1m"] = 1e15
    contents = Ractorbench::Store.read(write(runs))
    assert_equal [[4, "system is not a number of seconds"], [6, "seq is not a positive integer under 10^18"],
      [7, "status is not ok or failed or unsupported"], [8, "disturbed is not true or false"],
      [9, "load_average_1m is not a number from 0 to under 10^15"]], contents.skipped
    assert_equal [1, 2, 4, 9], contents.runs.map(&:rep)
    assert_equal [0.0] * 4, contents.runs.map(&:system)
  end

  def test_a_run_read_back_after_its_file_changed_keeps_what_the_columns_hold
    runs = varied_lines
    path = write(runs)
    table = Ractorbench::Store.read(path).runs
    File.write(path, File.read(path).sub(/\A.*\n/, "")) # every offset now points elsewhere
    view = table[2]
    kept = Ractorbench::Store::Columns.kept.keys
    assert_equal runs[2].slice(*kept), view.to_h, "the columns' fields, without those left in the file"
    assert_nil view["started_at"]
  end

  def test_the_analysis_sees_the_same_runs_through_the_columns
    runs = varied_lines
    analysis = Ractorbench::Analysis.new(Ractorbench::Store.read(write(runs)))
    threads = analysis.groups.find { |g| g.model == "threads" }
    assert_equal 1, analysis.failed
    assert_equal 8, threads.ok_count
    assert_equal runs.values_at(0, 1, 2, 3, 4, 5, 7, 9).map { |r| r["messages_time"] }.sort, threads.values("messages_time").sort
    assert_equal ["renamed by hand"], threads.ok_runs.map(&:id).grep(/renamed/)
    assert_equal [runs[6]["id"]], threads.failed_runs.map(&:id)
  end

  # The invariant behind "memory independent of the number of runs": after
  # reading, what stays alive grows with the configurations and the fields
  # that vary, not with a Hash, a String or a record per run.
  def test_live_objects_do_not_grow_with_the_runs
    configs = 20
    reps = 1_000
    path = write(many_runs(configs, reps))
    GC.start
    before = live_objects
    contents = Ractorbench::Store.read(path)
    GC.start
    grown = live_objects - before
    assert_equal configs * reps, contents.runs.size
    puts "live objects after reading #{configs * reps} runs: #{grown}" if ENV["VERBOSE"]
    assert_operator grown, :<, configs * reps / 10, "#{grown} objects stayed alive for #{configs * reps} runs"
  end

  # Damaged lines cost their own runs, named by line number; a cut last
  # line is the run a collector was writing, not damage.
  def test_damaged_lines_are_skipped_by_number_and_a_cut_last_line_tolerated
    lines = many_runs(4, 50).map { |r| JSON.generate(r) }
    lines[17] = "{not json"
    lines[120] = JSON.generate(JSON.parse(lines[120]).merge("workers" => "two"))
    lines[150] = "\xFF\xFE".b
    path = write([])
    File.write(path, lines.join("\n") + "\n" + lines.last[0, 40], mode: "ab")
    contents = Ractorbench::Store.read(path)
    assert_equal [[19, "not a JSON object"], [122, "workers is not a positive integer under 10^18"], [152, "not a JSON object"]], contents.skipped
    assert contents.truncated
    assert_equal 197, contents.runs.size
    assert_equal [49, 49, 49, 50], contents.runs.columns.map(&:size), "each damaged line its own configuration's"
  end

  # Failed and disturbed runs are told in the file's order, whichever
  # configurations they are of.
  def test_failed_and_disturbed_runs_are_listed_in_file_order
    runs = many_runs(4, 30).shuffle(random: Random.new(4))
    runs.each_with_index do |run, i|
      run.update("status" => "failed", "reason" => "boom #{i}") if i % 7 == 3
      run["disturbed"] = true if i % 11 == 5
    end
    path = write(runs)
    failed = runs.select { |run| run["status"] == "failed" }.map { |run| run["id"] }
    disturbed = runs.select { |run| run["disturbed"] }.map { |run| run["id"] }
    analysis = Ractorbench::Analysis.new(Ractorbench::Store.read(path))
    assert_equal failed, analysis.crashed_runs.map { |run| run["id"] }
    assert_equal disturbed, analysis.disturbed_runs.map { |run| run["id"] }
  end

  # A run whose id names another configuration than its fields is a run
  # of its fields' configuration, and reads back with its own id.
  def test_a_run_whose_id_names_another_configuration_reads_back_as_written
    runs = many_runs(6, 10)
    victim = runs.index { |run| run["id"] == "prime/threads/w2/m1/ruby/rep5" }
    runs[victim]["id"] = "prime/threads/w2/m2/ruby/rep5"
    contents = Ractorbench::Store.read(write(runs))
    assert_equal runs, contents.runs.map(&:to_h)
    assert_equal 10, contents.runs.columns.find { |c| c.label == "prime/threads/w2/m1/ruby" }.size
  end

  # Fields a report computes with are checked like the others: a seq that
  # is not a number, a memory or GC figure of the wrong type or past any run's
  # (sums of it would not be finite), a time under a nanosecond (a ratio over
  # it would not be). Each costs its line, with a warning that says why, and
  # every format reports the rest; so does a file whose times are all 0.
  def test_figures_of_the_wrong_type_or_size_cost_their_line
    runs = (0...8).map { |i| base_run(i, i + 1).merge("gc_count" => i, "peak_rss_kb" => 1000 + i) }
    runs[1]["seq"] = "2"
    runs[2]["peak_rss_kb"] = true
    runs[3]["gc_count"] = 1e308
    runs[4]["whole_time"] = 1e-310
    runs[5]["minor_faults"] = [1]
    contents = Ractorbench::Store.read(write(runs))
    assert_equal [[3, "seq is not a positive integer under 10^18"], [4, "peak_rss_kb is not a number from 0 to under 10^15"],
      [5, "gc_count is not a number from 0 to under 10^15"], [6, "whole_time is not a number of seconds"],
      [7, "minor_faults is not a number from 0 to under 10^15"]], contents.skipped
    assert_equal 3, contents.runs.size

    zero = %w[serial threads].flat_map { |m| (1..6).map { |rep| base_run(rep, rep).merge("model" => m, "id" => "prime/#{m}/w2/m4/ruby/rep#{rep}", "messages_time" => 0, "whole_time" => 0, "user" => 0, "system" => 0) } }
    path = write(zero)
    Ractorbench::Reports.names.each do |format|
      result = ractorbench("report", path, "--format", format, "-o", File.join(@dir, "out.#{format}"), "--force")
      assert_includes [0, 1], result.status.exitstatus, "#{format}: #{result.err}"
      refute_match(/\.rb:\d+:in /, result.err, format)
    end
  end

  # eql? takes 0.0 for -0.0 and a Hash for one with its keys in another
  # order; a run must still read back as its line has it, whatever the
  # lines before it (a parameter of -0.0 names
  # a configuration whose planned ids differ from those of 0.0).
  def test_runs_read_back_as_written_where_eql_would_merge_them
    runs = (0...12).map { |i| base_run(i, i + 1) }
    runs[1]["load_average_1m"] = -0.0
    runs.each { |r| r["load_average_1m"] = 0.0 unless r["load_average_1m"].is_a?(Float) && r["load_average_1m"].zero? }
    runs[6]["load_average_1m"] = -0.0
    runs[7]["load_average_1m"] = 0.5
    runs[3]["ops"] = {"yjit" => "off", "zjit" => "off"}
    runs[4]["ops"] = {"zjit" => "off", "yjit" => "off"}
    tilted = (0...6).map do |i|
      x = [0.0, -0.0][i % 2]
      base_run(20 + i, i + 1).merge("id" => "prime/threads/w2/m4/x=#{x}/ruby/rep#{i + 1}", "params" => {"x" => x})
    end
    path = write(runs + tilted)
    table = Ractorbench::Store.read(path).runs
    (runs + tilted).zip(table.to_a).each do |line, run|
      stored = run.columns.stored(run.row)
      %w[id load_average_1m params ops].each do |key|
        next unless line.key?(key)

        # inspect tells -0.0 from 0.0 and shows keys in their order
        assert_equal line[key].inspect, stored[key].inspect, "#{line["id"]}: #{key}"
      end
    end
  end

  # A pipe cannot be read back: it is read once, as it comes, and gives the same report as the file.
  def test_a_results_file_piped_in_reports_as_the_file_does
    path = write(varied_lines)
    from_file, _, status = Open3.capture3(RbConfig.ruby, EXE, "report", path, "--format", "csv")
    from_pipe, err, piped = Open3.capture3(RbConfig.ruby, EXE, "report", "/dev/stdin", "--format", "csv",
      stdin_data: File.read(path) + '{"type":"run","id":"cu')
    assert_equal status.exitstatus, piped.exitstatus, err
    assert_equal from_file, from_pipe
    assert_match(/the last line of \/dev\/stdin was cut off/, err)
  end

  def many_runs(configs, reps)
    rng = Random.new(1)
    Array.new(configs * reps) do |i|
      rep = i / configs + 1
      base_run(i, rep).merge("id" => "prime/threads/w2/m#{i % configs + 1}/ruby/rep#{rep}", "messages" => i % configs + 1,
        "messages_time" => rng.rand, "whole_time" => rng.rand + 1)
    end
  end

  def live_objects
    counts = ObjectSpace.count_objects
    counts[:TOTAL] - counts[:FREE]
  end
end
