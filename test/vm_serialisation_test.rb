# frozen_string_literal: true

require "test_helper"

# The ractor-scaling probe runs once per Ruby when a collection has ractor
# models and lands in the header; the report turns a Ruby whose W ractors
# cost far more CPU per iteration than one into words, naming the global
# instruction counter only for a Ruby with YJIT/RJIT compiled in and no
# Ractor::Port (3.4.0 here, not 4.0.0). The probe's figures are timings, so
# the wording is checked against recorded figures set to each case.
class VmSerialisationTest < Minitest::Test
  include CLIHelper
  include TempDir

  RUBY34 = "/opt/rubies/ruby-3.4.0/bin/ruby"
  RUBY40 = "/opt/rubies/ruby-4.0.0/bin/ruby"

  def collect(*models, rubies:)
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", "tarai", "-m", models.join(","), "--workers", "2", "--messages", "1",
      "--param", "x=8", "--param", "y=4", "--reps", "1", *rubies.flat_map { |r| ["--ruby", r] }, "-o", out)
    assert_equal 0, result.code, result.out + result.err
    out
  end

  def header(path) = results_lines(path).first

  # Sets every Ruby's recorded probe to cpu_ratio and wall_speedup, as if
  # measured so.
  def with_ratio(path, ratio, wall: 1.9)
    lines = results_lines(path)
    lines.first["rubies"].each do |ruby|
      scaling = ruby["info"]["ractor_scaling"]
      scaling["cpu_ns_per_iteration_w"] = scaling["cpu_ns_per_iteration_1"] * ratio
      scaling["cpu_ratio"] = ratio
      scaling["wall_speedup"] = wall
    end
    edited = File.join(@dir, "ratio#{ratio}-#{wall}.jsonl")
    File.write(edited, lines.map { |l| JSON.generate(l) + "\n" }.join)
    edited
  end

  def test_the_probe_is_recorded_per_ruby_and_explained_where_the_vm_serialises
    skip "needs Ruby 3.4.0 and 4.0.0 in /opt/rubies (../shared/rubies/install.sh installs them)" unless [RUBY34, RUBY40].all? { |r| File.executable?(r) }

    path = collect("serial", "ractors", rubies: ["r34=#{RUBY34}", "r40=#{RUBY40}"])
    rubies = header(path)["rubies"].to_h { |r| [r["name"], r["info"]] }
    rubies.each_value do |info|
      scaling = info["ractor_scaling"]
      assert_equal 2, scaling["workers"]
      assert_operator scaling["cpu_ratio"], :>, 0
    end
    assert_equal [true, false], [rubies["r34"]["features"]["yjit"], rubies["r34"]["features"]["ractor_port"]]
    assert rubies["r40"]["features"]["ractor_port"]

    slow = ractorbench("report", with_ratio(path, 3.0)).out
    r34 = slow.lines.grep(/^VM SERIALISATION: r34: 2 ractors running a loop that shares and allocates nothing cost 3\.00× the CPU per iteration of one/)
    assert_equal 1, r34.size, slow
    assert_match(/The known cause: Ruby 3\.3 and 3\.4 built with YJIT or RJIT .*rb_vm_insns_count.*Ruby 4\.0 does not have it: upgrade, run with --yjit/, r34.first)
    r40 = slow.lines.grep(/^VM SERIALISATION: r40: /)
    assert_equal 1, r40.size
    refute_match(/known cause/, r40.first, "4.0.0 has Ractor::Port: not the instruction counter")

    md = ractorbench("report", with_ratio(path, 3.0), "--format", "markdown").out
    assert_match(/^- VM SERIALISATION: r34: .*rb_vm_insns_count/, md)

    assert_empty ractorbench("report", with_ratio(path, 1.0)).out.lines.grep(/VM SERIALISATION|PROBE INCONCLUSIVE/)
    # Ractors that never ran side by side cannot show contention.
    busy = ractorbench("report", with_ratio(path, 1.0, wall: 1.05)).out
    assert_equal 2, busy.lines.grep(/^RACTOR-SCALING PROBE INCONCLUSIVE: r(34|40): its 2 ractors finished only 1\.05× faster than one.*run again on a quiet machine$/).size
  end

  def test_no_ractor_model_no_probe
    path = collect("serial", "threads", rubies: [])
    assert_nil header(path)["rubies"].first["info"]["ractor_scaling"]
  end
end
