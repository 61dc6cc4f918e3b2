# frozen_string_literal: true

require_relative "test_helper"
require "ractorbench/plan/catalog"

# A model declares its family (serial, thread, process, ractor, fiber); the
# results header records them, and the reports reason by family, never by
# a model's name.
class FamiliesTest < Minitest::Test
  include CLIHelper
  include TempDir

  def test_the_header_records_every_models_family
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", "fib", "--param", "n=12", "--workers", "2", "--messages", "1", "--reps", "1",
      "--load", fixture("pooled_threads_model.rb"), "-o", out)
    assert_equal 0, result.code, result.err
    families = results_lines(out).first.fetch("families")
    assert_equal({"serial" => "serial", "threads" => "thread", "processes" => "process", "ractors" => "ractor",
      "ractors-pipeless" => "ractor", "fibers" => "fiber", "threadpool" => "thread"},
      families.slice("serial", "threads", "processes", "ractors", "ractors-pipeless", "fibers", "threadpool"))
    assert_match(/threadpool .*\[thread\]/, ractorbench("list", "--load", fixture("pooled_threads_model.rb")).out)
  end

  # Without serial, bm's baseline is a model of the thread family: here the
  # plug-in one, whose name the report has never seen (and which sorts after
  # ractors, so "the first model" would not pick it).
  def test_bm_takes_a_thread_family_model_as_baseline_without_serial
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", "fib", "--param", "n=12", "-m", "ractors,threadpool", "--workers", "2",
      "--messages", "1", "--reps", "1", "--load", fixture("pooled_threads_model.rb"), "-o", out)
    assert_equal 0, result.code, result.err
    bm = ractorbench("report", out, "--format", "bm")
    assert_equal 0, bm.code, bm.err
    assert_match(/baseline threadpool/, bm.out)
  end

  def test_every_built_in_model_declares_a_family
    models = Ractorbench::Plan::Catalog.default.models
    assert_operator models.size, :>=, 6
    models.each { |m| assert_includes Ractorbench::Harness::Model::FAMILIES, m.family, "#{m.name} declares no family" }
  end

  def test_an_unknown_family_is_one_line
    assert_usage_error ractorbench("list", "--load", fixture("misfiled_model.rb")),
      /misfiled_model.rb failed to load: ArgumentError: model misfiled: family "quantum" is not one of serial, thread, process, ractor, fiber/
  end
end
