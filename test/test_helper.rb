# frozen_string_literal: true

require "minitest/autorun"
require "open3"
require "tmpdir"
require "fileutils"
require "json"
require "rbconfig"

ROOT = File.expand_path("..", __dir__)
EXE = File.join(ROOT, "exe", "ractorbench")
FIXTURES = File.join(ROOT, "test", "fixtures")
$LOAD_PATH.unshift(File.join(ROOT, "lib"))
require "ractorbench"

# A fresh folder for each test (@dir), removed after it.
module TempDir
  def setup
    super
    @dir = Dir.mktmpdir
  end

  def teardown
    FileUtils.rm_rf(@dir)
    super
  end
end

# Runs the real command line in a child process, as a user would.
module CLIHelper
  Result = Struct.new(:out, :err, :status) do
    def code = status.exitstatus
  end

  def ractorbench(*args, chdir: Dir.pwd, env: {})
    out, err, status = Open3.capture3(env, RbConfig.ruby, EXE, *args.map(&:to_s), chdir: chdir)
    Result.new(out, err, status)
  end

  def fixture(name) = File.join(FIXTURES, name)

  # Ruby code run by a Ruby of its own, with the gem's lib on its load path
  # and the given libraries required first.
  def ruby_script(script, *requires)
    out, err, status = Open3.capture3(RbConfig.ruby, "-I", File.join(ROOT, "lib"), *requires.flat_map { |r| ["-r", r] }, "-e", script)
    Result.new(out, err, status)
  end

  # try's diagnoses wrap prose at 100 columns under a 9-column label; joined
  # again, a sentence can be matched whole.
  def unwrapped(text) = text.gsub(/\n {9}(?! )/, " ")

  def results_lines(path)
    File.readlines(path).map { |l| JSON.parse(l) }
  end

  def runs_in(path)
    results_lines(path).select { |r| r["type"] == "run" }
  end

  # How many runs of one configuration its figures count. A shared machine
  # can disturb any run (another program took a core): those stay out of
  # the statistics unless every run of the configuration was disturbed.
  def counted_runs(path, **config)
    ok = runs_in(path).select { |r| r["status"] == "ok" && config.all? { |k, v| r[k.to_s] == v } }
    calm = ok.reject { |r| r["disturbed"] }
    calm.empty? ? ok.size : calm.size
  end

  # The one-line, exit-2 contract for bad input.
  def assert_usage_error(result, pattern)
    assert_equal 2, result.code, "expected exit 2, got #{result.code}: #{result.err}"
    assert_equal 1, result.err.lines.size, "expected one line on stderr, got:\n#{result.err}"
    assert_match pattern, result.err
    refute_match(/\.rb:\d+:in /, result.err, "stack trace leaked")
  end
end
