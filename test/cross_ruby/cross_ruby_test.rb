# frozen_string_literal: true

require "test_helper"

# Every model × every workload, at small sizes, on every Ruby this machine has
# (`ractorbench rubies`: PATH, rbenv, asdf, chruby, mise, rvm): every model of
# a workload computes the same digest on every Ruby, and what a Ruby lacks
# (ZJIT, M:N threads) gives "not supported" rows where `rubies` says it lacks
# it, runs where it says it has it. mruby (listed with what it "has": it runs
# only its own ops/s child) gives "not supported" rows, never failures. On a
# machine with only its own Ruby it says what it looked for and runs there.
# `rake test:cross_ruby` (CI runs it after the suite).
class CrossRubyTest < Minitest::Test
  include CLIHelper
  include TempDir

  MODELS = Ractorbench::Plan::Catalog.default.models.map(&:name).freeze
  # Each workload at a size that takes milliseconds; the mechanism workloads
  # (spawn, ring, fan-in) with the models they define.
  WORKLOADS = {
    "prime" => [], "noop" => [], "fib" => %w[n=15], "tarai" => %w[x=6 y=3 z=0], "alloc" => %w[iterations=1000],
    "spawn" => %w[gc=on], "ring" => %w[nodes=4], "fan-in" => %w[via=mailbox]
  }.freeze

  def found_rubies
    @found_rubies ||= begin
      result = ractorbench("rubies", "--format", "json")
      assert_equal 0, result.code, result.err
      JSON.parse(result.out).reject { |r| r["problem"] }.tap do |rubies|
        puts "\ncross-Ruby: looked on PATH and in rbenv, asdf, chruby (/opt/rubies, ~/.rubies), mise and rvm folders; " \
          "running on #{rubies.map { |r| "#{r["name"]} (#{r["path"]})" }.join(", ")}"
      end
    end
  end

  # The Rubies that run ractorbench's CRuby harness, so every workload.
  def harness_rubies = found_rubies.reject { |r| r["has"] }

  def collect(workload, params, *extra)
    out = File.join(@dir, "#{workload}.jsonl")
    result = ractorbench("run", "-w", workload, "-m", MODELS.join(","), "--workers", "2", "--messages", "2", "--reps", "1",
      *params.flat_map { |p| ["--param", p] }, "--rubies", "all", *extra, "-o", out)
    assert_includes [0, 1], result.code, result.err
    runs_in(out)
  end

  def test_every_model_and_workload_agree_on_every_ruby
    names = found_rubies.map { |r| r["name"] }
    refute_empty names
    WORKLOADS.each do |workload, params|
      runs = collect(workload, params)
      assert_equal names.sort, runs.map { |r| r["ruby"] }.uniq.sort, workload
      failed = runs.select { |r| r["status"] == "failed" }
      assert_empty failed.map { |r| "#{r["id"]}: #{r["reason"]}" }, workload
      ok = runs.select { |r| r["status"] == "ok" }
      refute_empty ok, workload
      # Every Ruby of the harness ran the workload somehow, and every result agrees.
      assert_equal harness_rubies.map { |r| r["name"] }.sort, ok.map { |r| r["ruby"] }.uniq.sort, "#{workload}: a Ruby ran no model"
      assert_equal 1, ok.map { |r| r["digest"] }.uniq.size,
        "#{workload}: digests differ: #{ok.group_by { |r| r["digest"] }.transform_values { |rs| rs.map { |r| "#{r["model"]}@#{r["ruby"]}" } }}"
      runs.select { |r| r["status"] == "unsupported" }.each { |r| refute_empty r["reason"].to_s, r["id"] }
    end
  end

  # --zjit both and --mn both on every Ruby: a run for each where `rubies`
  # says the Ruby has it, a "not supported on this Ruby" row where not.
  def test_what_a_ruby_lacks_gives_not_supported_rows_where_rubies_says_so
    found = harness_rubies.to_h { |r| [r["name"], r] }
    runs = collect("tarai", WORKLOADS["tarai"], "--zjit", "both", "--mn", "both").select { |r| r["model"] == "serial" }
    # Variants are named after their Ruby: ruby-4.0.0+zjit, ruby-3.4.0+zjit+mn.
    {"zjit" => "zjit", "mn" => "mn_threads"}.each do |suffix, column|
      found.each do |name, ruby|
        with = runs.select { |r| r["ruby"].start_with?("#{name}+") && r["ruby"].split("+").drop(1).include?(suffix) }
        assert_equal 2, with.size, "#{name}: runs with #{suffix}: #{with.map { |r| r["ruby"] }}"
        if ruby[column]
          alone = with.find { |r| r["ruby"] == "#{name}+#{suffix}" }
          assert_equal "ok", alone["status"], "#{name}+#{suffix}: #{alone["reason"]}"
        else
          # Where both are asked for, the first the Ruby lacks is the reason given.
          lacking = with.reject { |r| r["status"] == "ok" }
          assert_equal 2, lacking.size, "#{name}+#{suffix} ran although `rubies` says it lacks it"
          assert lacking.all? { |r| r["reason"].start_with?("not supported on this Ruby: ") }, lacking.map { |r| r["reason"] }.inspect
        end
      end
    end
    report = ractorbench("report", File.join(@dir, "tarai.jsonl"))
    assert_match(/not supported on this Ruby/, report.out) if found.values.any? { |r| !r["zjit"] || !r["mn_threads"] }
  end
end
