# frozen_string_literal: true

require "test_helper"
require "ractorbench/rubies/interpreter_settings"

# --yjit / --mn / --max-cpu make interpreter settings dimensions of the
# matrix; every run records them, and a setting this Ruby does not honour
# gives "not supported" rows instead of a number that measures something else.
class InterpreterSettingsTest < Minitest::Test
  include CLIHelper

  def setup
    @dir = Dir.mktmpdir
    @out = File.join(@dir, "r.jsonl")
  end

  def teardown
    FileUtils.rm_rf(@dir)
  end

  def collect(*args)
    result = ractorbench("run", "-w", "fib", "--param", "n=15", "-m", "serial", "--reps", "1", "--workers", "1",
      "--messages", "1", *args, "-o", @out)
    [result, results_lines(@out).first["rubies"].to_h { |r| [r["name"], r] }, runs_in(@out).to_h { |r| [r["ruby"], r] }]
  end

  def test_yjit_both_runs_each_ruby_with_and_without_yjit
    result, rubies, runs = collect("--yjit", "both")
    assert_equal %w[ruby ruby+yjit], rubies.keys.sort
    assert_equal "--yjit", rubies["ruby+yjit"]["argv"].last
    assert_equal({"yjit" => "off"}, runs["ruby"]["settings"])
    assert_equal "ok", runs["ruby"]["status"]
    if rubies["ruby+yjit"].dig("info", "features", "yjit_enabled")
      assert_equal "ok", runs["ruby+yjit"]["status"], runs["ruby+yjit"]["reason"]
      assert_equal({"yjit" => "on"}, runs["ruby+yjit"]["settings"])
      assert_match(/Interpreter settings: ruby: YJIT off; ruby\+yjit: YJIT on/, result.out)
    else
      assert_equal "unsupported", runs["ruby+yjit"]["status"]
      assert_match(/YJIT was asked for/, runs["ruby+yjit"]["reason"])
    end
  end

  ZJIT_RUBY = "/opt/rubies/ruby-4.0.0/bin/ruby"

  # ZJIT is one entry of the settings table: rows that ran with it on a Ruby
  # that has it, "not supported" with the evidence on one that has not.
  def test_zjit_both_on_a_ruby_with_zjit_and_on_one_without
    args = ["--zjit", "both", "--ruby", "host=#{RbConfig.ruby}"]
    has_zjit = File.executable?(ZJIT_RUBY)
    args += ["--ruby", "ruby40=#{ZJIT_RUBY}"] if has_zjit
    result, rubies, runs = collect(*args)
    assert_equal 0, result.code, result.err
    assert_equal "1", rubies.fetch("host+zjit")["env"]["RUBY_ZJIT_ENABLE"]
    assert_equal "ok", runs.fetch("host")["status"]
    if rubies.fetch("host+zjit").dig("info", "features", "zjit")
      assert_equal({"yjit" => "off", "zjit" => "on"}, runs.fetch("host+zjit")["settings"])
    else
      assert_equal "unsupported", runs.fetch("host+zjit")["status"]
      assert_match(/ZJIT was asked for \(RUBY_ZJIT_ENABLE=1\) but is not on: this Ruby was built without ZJIT/,
        runs.fetch("host+zjit")["reason"])
    end
    unless has_zjit
      puts "\n  (#{ZJIT_RUBY} not installed: ZJIT rows checked on the host Ruby only; run ../shared/rubies/install.sh)"
      return
    end
    assert_equal "ok", runs.fetch("ruby40+zjit")["status"], runs.fetch("ruby40+zjit")["reason"]
    assert_equal "on", runs.fetch("ruby40+zjit")["settings"]["zjit"]
    refute runs.fetch("ruby40")["settings"].key?("zjit"), "ZJIT recorded only where asked for or on"
    assert_equal runs.fetch("ruby40")["digest"], runs.fetch("ruby40+zjit")["digest"]
  end

  # On a Ruby before 3.3 the M:N variables do nothing; on one that honours
  # them the probe sees waiting threads share native threads.
  def test_mn_and_max_cpu_are_verified_not_assumed
    result, rubies, runs = collect("--mn", "on", "--max-cpu", "2")
    target = rubies.fetch("ruby+mn+cpu2")
    assert_equal({"RUBY_MN_THREADS" => "1", "RUBY_MAX_CPU" => "2"}, target["env"])
    check = target.dig("info", "features", "mn", "threads")
    refute_nil check, "the probe did not look at M:N"
    run = runs.fetch("ruby+mn+cpu2")
    case check["active"]
    when false
      assert_equal "unsupported", run["status"]
      assert_match(/RUBY_MN_THREADS=1\) but is not in effect: \d+ waiting threads held \d+ native threads .*no effect before Ruby 3\.3/, run["reason"])
      assert_match(/not supported on this Ruby: the M:N scheduler/, result.out)
      assert_equal "not in effect", run["settings"]["mn_threads"]
    when true
      assert_equal "ok", run["status"], run["reason"]
      assert_equal "on (verified)", run["settings"]["mn_threads"]
    else
      assert_equal "unverified", run["settings"]["mn_threads"]
    end
  end

  def test_bad_setting_values_are_usage_errors
    assert_usage_error(ractorbench("run", "--yjit", "maybe"), /invalid argument: --yjit maybe/)
    assert_usage_error(ractorbench("run", "--mn", "2"), /invalid argument: --mn 2/)
    assert_usage_error(ractorbench("run", "--max-cpu", "0"), /--max-cpu/)
  end

  def test_a_ruby_built_without_yjit_is_named_as_such
    ruby = Ractorbench::Rubies::Target.new(name: "ruby", argv: ["ruby", "--yjit"],
      info: {"features" => {"yjit" => false, "yjit_enabled" => false}})
    settings = Ractorbench::Rubies::InterpreterSettings.new(ruby)
    assert_match(/YJIT was asked for \(--yjit\) but is not on: this Ruby was built without YJIT/, settings.unsupported_reason)
    assert_equal "YJIT off", settings.label
  end
end
