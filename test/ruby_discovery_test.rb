# frozen_string_literal: true

require "test_helper"
require "ractorbench/rubies/discovery"

# Rubies found where version managers put them: folders shaped as rbenv,
# asdf, chruby, mise and rvm lay them out, under a temporary HOME (or moved
# by each manager's environment variable), holding links to the real Rubies
# of this machine; an engine without Ractor or fork (JRuby-like: a real Ruby
# made to look so) listed and given "not supported" rows.
class RubyDiscoveryTest < Minitest::Test
  include CLIHelper
  include TempDir

  HOST = File.realpath(RbConfig.ruby)
  FAKE_ENGINE = File.join(FIXTURES, "fake_engine", "no_ractor_no_fork.rb")

  # Each manager's folder of installs under HOME, by default and when moved.
  LAYOUTS = {
    "rbenv" => [".rbenv/versions", "RBENV_ROOT", "versions"],
    "asdf" => [".asdf/installs/ruby", "ASDF_DATA_DIR", "installs/ruby"],
    "chruby" => [".rubies", nil, nil],
    "mise" => [".local/share/mise/installs/ruby", "MISE_DATA_DIR", "installs/ruby"],
    "rvm" => [".rvm/rubies", "rvm_path", "rubies"]
  }.freeze

  # A link to this Ruby, as version managers' folders hold; wrapper: true
  # makes it a script that starts this Ruby instead (a file of its own, so a
  # Ruby found elsewhere too, such as /opt/rubies', is not the same file).
  def install(folder, version, exe: "ruby", target: HOST, wrapper: false)
    bin = File.join(folder, version, "bin")
    FileUtils.mkdir_p(bin)
    path = File.join(bin, exe)
    if wrapper
      File.write(path, "#!/bin/sh\nexec #{target} \"$@\"\n")
      File.chmod(0o755, path)
    else
      File.symlink(target, path)
    end
    path
  end

  # A JRuby-like engine: a script that starts this Ruby with Ractor, fork and
  # RUBY_ENGINE taken away.
  def install_fake_jruby(folder)
    bin = File.join(folder, "jruby-9.4.0.0", "bin")
    FileUtils.mkdir_p(bin)
    path = File.join(bin, "jruby")
    File.write(path, "#!/bin/sh\nexec #{HOST} -r#{FAKE_ENGINE} \"$@\"\n")
    File.chmod(0o755, path)
    path
  end

  def candidates(env, home) = Ractorbench::Rubies::Discovery.new(env: env.merge("PATH" => ""), home: home).candidates

  # One HOME per case: links to one Ruby found twice would be listed once.
  def test_each_version_managers_layout_by_default_and_moved_by_its_variable
    LAYOUTS.each do |manager, (default, variable, inside)|
      home = File.join(@dir, manager)
      home_install = install(File.join(home, default), "3.1.2", wrapper: true)
      assert_includes candidates({}, home), [home_install, manager], "#{manager} under HOME"
      next unless variable

      moved_root = File.join(@dir, "moved-#{manager}")
      moved = install(File.join(moved_root, inside), "3.1.2", wrapper: true)
      assert_includes candidates({variable => moved_root}, File.join(@dir, "empty")), [moved, manager], "#{manager} moved by #{variable}"
    end
    # chruby's RUBIES, where exported, names Ruby roots anywhere.
    exe = install(File.join(@dir, "elsewhere"), "ruby-3.1.2", wrapper: true)
    assert_includes candidates({"RUBIES" => File.join(@dir, "elsewhere", "ruby-3.1.2")}, File.join(@dir, "empty")), [exe, "chruby"]
    # mise also follows XDG_DATA_HOME.
    xdg = install(File.join(@dir, "xdg", "mise", "installs", "ruby"), "3.1.2", wrapper: true)
    assert_includes candidates({"XDG_DATA_HOME" => File.join(@dir, "xdg")}, File.join(@dir, "empty")), [xdg, "mise"]
  end

  def test_the_same_ruby_found_twice_is_listed_once
    a = install(File.join(@dir, ".rbenv/versions"), "3.1.2")
    install(File.join(@dir, ".rvm/rubies"), "ruby-3.1.2")
    found = Ractorbench::Rubies::Discovery.new(env: {"PATH" => File.dirname(HOST)}, home: @dir).candidates
    assert_equal [[a, "rbenv"]], found.select { |path, _| File.realpath(path) == HOST }
  end

  def test_rubies_lists_what_each_can_run_and_a_jruby_like_engine
    install(File.join(@dir, ".rbenv/versions"), "3.1.2")
    jruby = install_fake_jruby(File.join(@dir, ".asdf/installs/ruby"))
    result = ractorbench("rubies", "--format", "json", env: {"HOME" => @dir})
    assert_equal 0, result.code, result.err
    rows = JSON.parse(result.out)
    host = rows.find { |r| r["found_by"] == "rbenv" }
    assert_equal [RUBY_VERSION, "ruby", "yes", true], [host["version"], host["engine"], host["ractor"] ? "yes" : "no", host["fork"]]
    assert_includes %w[Port yield/take], host["ractor"]
    fake = rows.find { |r| r["path"] == jruby }
    assert_equal ["jruby", "none", false, "asdf"], fake.values_at("engine", "ractor", "fork", "found_by")
    text = ractorbench("rubies", env: {"HOME" => @dir})
    assert_equal 0, text.code
    assert_match(/^\s*jruby-#{Regexp.escape(RUBY_VERSION)}\s+#{Regexp.escape(RUBY_VERSION)}\s+jruby\s+.*none\s+no\s+no\s+asdf/o, text.out)
  end

  def test_picking_by_version_prefix_name_and_engine
    jruby = install_fake_jruby(File.join(@dir, ".rbenv/versions"))
    out = File.join(@dir, "r.jsonl")
    major_minor = RUBY_VERSION.split(".").first(2).join(".")
    result = ractorbench("run", "-w", "tarai", "-m", "serial,threads,processes,ractors", "--workers", "2", "--messages", "1",
      "--param", "x=6", "--param", "y=3", "--reps", "1", "--ruby", major_minor, "--ruby", "jruby", "-o", out, env: {"HOME" => @dir})
    assert_equal 0, result.code, result.err
    rubies = results_lines(out).first["rubies"].to_h { |r| [r["name"], r["argv"].first] }
    assert_equal "jruby-#{RUBY_VERSION}", rubies.keys.grep(/jruby/).first
    assert_equal jruby, rubies["jruby-#{RUBY_VERSION}"]
    picked = rubies.reject { |name, _| name.start_with?("jruby") }
    assert_equal 1, picked.size
    assert picked.keys.first.start_with?("ruby-#{major_minor}."), picked.inspect
    runs = runs_in(out).select { |r| r["ruby"].start_with?("jruby") }
    assert_equal({"processes" => "unsupported", "ractors" => "unsupported", "serial" => "ok", "threads" => "ok"},
      runs.to_h { |r| [r["model"], r["status"]] })
    assert_equal({"processes" => "not supported on this Ruby: this Ruby cannot fork", "ractors" => "not supported on this Ruby: this Ruby has no Ractor"},
      runs.select { |r| r["status"] == "unsupported" }.to_h { |r| [r["model"], r["reason"]] })
    report = ractorbench("report", out)
    assert_match(/not supported on this Ruby: this Ruby has no Ractor/, report.out)
  end

  def test_rubies_all_takes_every_ruby_found
    install(File.join(@dir, ".rbenv/versions"), "3.1.2")
    listed = JSON.parse(ractorbench("rubies", "--format", "json", env: {"HOME" => @dir}).out)
    found = listed.reject { |r| r["problem"] }
    out = File.join(@dir, "all.jsonl")
    result = ractorbench("run", "-w", "noop", "-m", "serial", "--reps", "1", "--rubies", "all", "-o", out, env: {"HOME" => @dir})
    assert_equal 0, result.code, result.err
    # Once (4.0.0 driver, CI) mruby was in the run but not in `rubies`: say what `rubies` said of each.
    assert_equal found.map { |r| r["name"] }.sort, results_lines(out).first["rubies"].map { |r| r["name"] }.sort,
      listed.map { |r| r.slice("name", "path", "problem") }.inspect
  end

  def test_a_ruby_not_found_is_one_line_listing_what_was
    out = File.join(@dir, "r.jsonl")
    result = ractorbench("run", "-w", "noop", "-m", "serial", "--ruby", "9.9", "-o", out, env: {"HOME" => @dir})
    assert_usage_error(result, /--ruby 9\.9: no such Ruby found; found: .*ruby-#{Regexp.escape(RUBY_VERSION)} \((PATH|chruby)\)/o)
    refute File.exist?(out)
    assert_usage_error(ractorbench("run", "-w", "noop", "--rubies", ",", "-o", out), /--rubies: give all, or a list/)
  end
end
