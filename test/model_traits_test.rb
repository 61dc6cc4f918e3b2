# frozen_string_literal: true

require_relative "test_helper"
require "ripper"
require "ractorbench/plan/catalog"
require "ractorbench/plan/model_traits"

# A model declares what the driver needs to know of it (family, shape,
# baseline, the per-job models a split is the ceiling of, the checks that
# vouch for it); the results header records it, and nothing in the driver
# goes by a model's name.
class ModelTraitsTest < Minitest::Test
  include CLIHelper
  include TempDir

  LIB = File.join(ROOT, "lib")
  NAMES = Ractorbench::Plan::Catalog.default.models.map(&:name).freeze

  # String literals in lib/ that are exactly a model's name, and why each
  # may be: none of them decides how the driver treats a model.
  ALLOWED = {
    # A suite is a write-up's experiment: it names the models it runs, as a
    # command line does (`-m serial,ractors`).
    "ractorbench/plan/suites/basic_benchmarking.rb" => %w[serial threads processes ractors ractors-pipeless],
    "ractorbench/plan/suites/exploring_ractors.rb" => %w[serial threads ractors],
    "ractorbench/plan/suites/ractor_reconsidered.rb" => %w[serial ractors threads fibers processes],
    "ractorbench/plan/suites/messaging.rb" => %w[ractors threads processes fibers],
    # The serial *family* (Harness::Model::FAMILIES), which shares its name
    # with the model: a family is a trait.
    "ractorbench/plan/capacity.rb" => %w[serial],
    "ractorbench/plan/model_traits.rb" => %w[serial],
    "ractorbench/profile/profiled_runs.rb" => %w[serial],
    "ractorbench/reports/bm.rb" => %w[serial],
    # try's check stage "threads" (Harness::Model::CHECKS, the preflight's
    # stages) and the keys of the facts the check brings back.
    "ractorbench/advisor/preflight.rb" => %w[threads],
    "ractorbench/advisor/diagnosis.rb" => %w[threads],
    # Keys of other programs' data: the probe's M:N checks, vernier's profile.
    "ractorbench/rubies/settings.rb" => %w[threads ractors],
    "ractorbench/commands/ruby_list.rb" => %w[threads],
    "ractorbench/profile/vernier.rb" => %w[threads],
    # The plural of "process", in counted words.
    "ractorbench/base/plural.rb" => %w[processes]
  }.freeze

  # {path => [model names]}: every string literal (or %w word) whose whole
  # text is a model's name, comments and longer strings aside.
  def self.name_literals
    Dir[File.join(LIB, "**", "*.rb")].sort.to_h { |path| [path.delete_prefix("#{LIB}/"), literals_in(path).uniq] }
      .reject { |_, names| names.empty? }
  end

  # The model names one file spells as a whole literal, in order.
  def self.literals_in(path)
    tokens = Ripper.lex(File.read(path))
    tokens.each_with_index.filter_map do |(_, type, text), i|
      next unless type == :on_tstring_content && NAMES.include?(text)
      next unless %i[on_tstring_beg on_qwords_beg on_words_sep].include?(tokens[i - 1][1])
      next unless %i[on_tstring_end on_words_sep].include?(tokens[i + 1][1])

      text
    end
  end

  def test_no_new_model_name_in_the_driver
    found = self.class.name_literals
    unexpected = found.to_h { |path, names| [path, names - ALLOWED.fetch(path, [])] }.reject { |_, names| names.empty? }
    assert_empty unexpected, "the driver goes by these models' names: declare a trait in harness/ractorbench/harness/model.rb instead"
    stale = ALLOWED.to_h { |path, names| [path, names - found.fetch(path, [])] }.reject { |_, names| names.empty? }
    assert_empty stale, "allowed but no longer there: take them out of ALLOWED"
  end

  def test_the_scan_sees_a_name_in_a_string_and_in_a_word_list
    Dir.mktmpdir do |dir|
      path = File.join(dir, "probe.rb")
      File.write(path, %(# "serial" in a comment\na = "ractors"\nb = %w[x threads]\nc = "serial's"\n))
      assert_equal %w[ractors threads], self.class.literals_in(path)
    end
  end

  def test_the_built_in_models_declare_the_traits_the_driver_goes_by
    catalog = Ractorbench::Plan::Catalog.default
    assert_equal({"serial" => true}, catalog.baselines)
    assert_equal({"processes-split" => %w[processes], "ractors-split" => %w[ractors ractors-pipeless]}, catalog.ceilings)
    catalog.models.each do |m|
      assert_equal m.family == "ractor", m.vouched_by == %w[ractor], "#{m.name}: a ractor model is vouched for by the ractor check"
      assert_equal m.family == "process", m.vouched_by == %w[marshal], "#{m.name}: a forked model is vouched for by Marshal"
    end
    assert_equal %w[families shapes baselines ceilings vouched_by], catalog.traits.keys
  end

  # A file written before the traits were recorded: its serial-family model
  # is the baseline, ceilings and checks as the models installed here say.
  def test_an_older_header_derives_the_traits_from_what_it_has
    traits = Ractorbench::Plan::ModelTraits.of({"families" => {"serial" => "serial", "mine" => "serial", "threads" => "thread"}})
    assert traits.baseline?("serial")
    assert traits.baseline?("mine")
    refute traits.baseline?("threads")
    assert_equal %w[processes], traits.ceilings["processes-split"]
    assert_equal %w[ractor], traits.vouched_by("ractors")
    assert_equal "thread", traits.family("threads")
  end

  def test_an_unknown_check_is_one_line
    path = File.join(@dir, "vouched.rb")
    File.write(path, <<~RUBY)
      module Vouched
        extend Ractorbench::Harness::Model
        model "vouched", "test fixture", family: "thread", vouched_by: %w[astrology]
        def self.run(workload, jobs, _workers) = jobs.map { |job| workload.work(job) }
      end
    RUBY
    assert_usage_error ractorbench("list", "--load", path),
      /vouched.rb failed to load: ArgumentError: model vouched: vouched_by "astrology" is not one of ractor, threads, marshal/
  end

  # A baseline and a split ceiling under names the driver has never seen:
  # speedups are measured against the one, the other is named the ceiling
  # of threads, and the header records both.
  def test_a_loaded_baseline_and_ceiling_are_treated_by_their_traits
    assert_treated_by_traits(RbConfig.ruby)
  end

  RUBY4 = "/opt/rubies/ruby-4.0.0/bin/ruby"

  def test_a_loaded_baseline_and_ceiling_on_ruby_4
    skip "#{RUBY4} is not installed" unless File.executable?(RUBY4)

    assert_treated_by_traits(RUBY4)
  end

  private

  def assert_treated_by_traits(ruby)
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", "fib", "--param", "n=12", "-m", "one-at-a-time,threads,thread-halves", "--workers", "2",
      "--messages", "4", "--reps", "2", "--load", fixture("traits_models.rb"), "--ruby", "r=#{ruby}", "-o", out)
    assert_equal 0, result.code, result.err
    header = results_lines(out).first
    assert_equal true, header.dig("baselines", "one-at-a-time")
    assert_equal %w[threads], header.dig("ceilings", "thread-halves")
    assert_equal %w[threads], header.dig("vouched_by", "thread-halves")

    json = ractorbench("report", out, "--format", "json")
    assert_equal 0, json.code, json.err
    rows = JSON.parse(json.out).fetch("configurations").to_h { |r| [r["model"], r] }
    assert_equal 1.0, rows.fetch("one-at-a-time")["speedup"], "the declared baseline is its own baseline"
    %w[threads thread-halves].each do |model|
      assert_kind_of Float, rows.fetch(model)["speedup"], "#{model} is measured against the declared baseline"
      assert_equal rows.fetch("one-at-a-time")["samples"], rows.fetch(model)["baseline_samples"]
    end

    text = ractorbench("report", out, "--format", "text")
    assert_equal 0, text.code, text.err
    assert_match(/SPLIT CEILING vs PER-MESSAGE COST: fib \(n=12\) W=2 M=4 r: thread-halves [\d.]+× is the work's ceiling .*; threads [\d.]+×/, text.out)
    assert_match(/Digests agree/, text.out)
  end
end
