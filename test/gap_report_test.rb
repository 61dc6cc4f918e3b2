# frozen_string_literal: true

require "test_helper"
require "ractorbench/reports/csv"

# The report explains each parallel row's gap to the ideal in parts that add
# up (serial's work, CPU beyond serial's, time no CPU ran), shows what each
# configuration cost (faults, switches, objects, GC) and carries those
# figures in JSON and CSV. Real runs; invariants, not timings.
class GapReportTest < Minitest::Test
  include CLIHelper
  include TempDir

  def test_the_gap_parts_add_up_and_the_costs_are_reported
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", "prime", "-m", "serial,processes,ractors-pipeless", "--workers", "2",
      "--messages", "1000", "--reps", "2", "-o", out)
    assert_equal 0, result.code, result.err

    rows = JSON.parse(ractorbench("report", out, "--format", "json").out)["configurations"]
    parallel = rows.reject { |r| r["model"] == "serial" }
    assert_equal 2, parallel.size
    parallel.each do |r|
      parts = r.values_at("work_share", "extra_cpu_share", "idle_share")
      assert parts.all? { |p| p.between?(0, 1) }, "#{r["model"]}: #{parts.inspect}"
      assert_in_delta 1.0, parts.sum, 1e-9, r["model"]
      assert_in_delta [r["speedup"] / r["cores_used"], 1.0].min, r["work_share"], 1e-9, "the useful share is the efficiency"
      assert_operator r["messages_cpu"], :>, 0
      %w[minor_faults voluntary_switches involuntary_switches allocated_objects gc_count gc_time_ms].each do |k|
        assert_kind_of Numeric, r[k], "#{r["model"]} #{k}"
      end
    end

    text = ractorbench("report", out, "--format", "text").out
    assert_match(/Cost per run \(medians; page faults of forked workers included\)/, text)
    assert_match(/^\| prime +\| processes +\| 2 \| 1000 \| ruby \| +[\d,]+ \|/, text)
    parallel.each do |r|
      gap = text.lines.grep(/^GAP TO IDEAL: prime W=2 M=1000 ruby: #{r["model"]} /)
      serial_seconds = r["speedup"] * r["messages_time"]["median"]
      if r["work_share"] < 0.9 && serial_seconds >= 0.05
        assert_equal 1, gap.size, "a row short of its ideal is explained"
        assert_match(/of 2 cores' time during the timed work, \d+% ran serial's work, \d+% was CPU beyond serial's.*, \d+% ran nothing/, gap.first)
      else
        assert_empty gap, "a row within a tenth of the ideal, or too short to tell, gets no explanation"
      end
    end

    csv = ractorbench("report", out, "--format", "csv").out.lines.first.chomp.split(",")
    assert_equal %w[idle_worker_runs minor_faults major_faults voluntary_switches involuntary_switches allocated_objects gc_time_ms
      work_share extra_cpu_share idle_share fixed_cost_seconds disturbed_runs], csv.last(12 + Ractorbench::Reports::Csv::OPS.size).first(12),
      "later columns go last, before seed 001's ops columns"
  end
end
