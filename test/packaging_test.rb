# frozen_string_literal: true

require_relative "test_helper"
require_relative "../tasks/readme_examples"
require "rubygems/package"

# The gem as a user gets it: built with `gem build`, it carries a LICENSE
# matching the gemspec, everything the README shows (the examples, their
# recorded results, the sample page, the architecture), and once installed
# `ractorbench try --example json_parse` finds its example.
class PackagingTest < Minitest::Test
  include CLIHelper
  include TempDir

  def build_gem
    gem = File.join(@dir, "ractorbench.gem")
    _, err, status = Open3.capture3("gem", "build", "ractorbench.gemspec", "--output", gem, chdir: ROOT)
    assert status.success?, "gem build failed:\n#{err}"
    gem
  end

  def test_the_gem_carries_the_license_and_what_the_readme_shows
    gem = build_gem
    package = Gem::Package.new(gem)
    files = package.contents
    spec = package.spec
    assert_equal ["MIT"], spec.licenses
    assert_includes files, "LICENSE"
    assert_match(/\AMIT License\n\nCopyright \(c\) \d{4} #{Regexp.escape(spec.authors.join(", "))}\n/, File.read(File.join(ROOT, "LICENSE")))

    %w[README.md exe/ractorbench harness/child.rb docs/ARCHITECTURE.md].each { |f| assert_includes files, f }
    readme = File.read(File.join(ROOT, "README.md"))
    # Every file the README's and docs' examples and pictures use, every
    # example, and the docs the README points to.
    shown = ReadmeExamples.examples.flat_map { |e| Shellwords.split(e.command).grep(%r{\A[\w./-]+\.(jsonl|rb)\z}) }
    shown += ReadmeExamples.files.flat_map do |file|
      File.read(file).scan(/!\[[^\]]*\]\(([^)]+)\)/).flatten.map { |f| File.expand_path(f, File.dirname(file)).delete_prefix("#{ROOT}/") }
    end
    shown += ReadmeExamples.files.map { |f| f.delete_prefix("#{ROOT}/") }
    shown += readme.scan(%r{`(examples/[\w./-]+)`}).flatten.map { |f| File.exist?(File.join(ROOT, f)) ? f : "examples/#{File.basename(f)}" }
    shown += Dir[File.join(ROOT, "examples", "**", "*")].select { |f| File.file?(f) }.map { |f| f.delete_prefix("#{ROOT}/") }
    refute_empty shown
    missing = shown.uniq.reject { |f| files.include?(f) }
    assert_empty missing, "the README shows files the gem lacks"
    refute(files.any? { |f| f.start_with?("test/") }, "tests stay in the repository")
  end

  # Installs the gem in a scratch gem home (its dependencies from this
  # machine's gems); the environment that uses it, its executable and a
  # folder outside the checkout to run it from.
  def install_gem
    gem = build_gem
    home = File.join(@dir, "home")
    system_path = Gem.path.join(File::PATH_SEPARATOR)
    env = {"GEM_HOME" => home, "GEM_PATH" => [home, system_path].join(File::PATH_SEPARATOR), "BUNDLE_GEMFILE" => nil,
           "RUBYOPT" => nil, "BUNDLER_SETUP" => nil}
    _, err, status = Open3.capture3(env, "gem", "install", "--local", "--no-document", "--ignore-dependencies", gem, chdir: @dir)
    assert status.success?, "gem install failed:\n#{err}"
    exe = File.join(home, "bin", "ractorbench")
    assert File.executable?(exe), "the gem installs its executable"
    away = File.join(@dir, "elsewhere")
    FileUtils.mkdir_p(away)
    [env, exe, away, File.join(home, "gems", "ractorbench-#{Ractorbench::VERSION}", "examples")]
  end

  # Installed, the gem runs from anywhere and finds its examples.
  def test_the_examples_are_reachable_after_gem_install
    env, exe, away, installed = install_gem
    list, err, status = Open3.capture3(env, RbConfig.ruby, exe, "list", chdir: away)
    assert status.success?, err
    assert_includes list, "Examples (ractorbench try --example NAME; files in #{installed})"
    assert_match(/^  json_parse +JSON parsing$/, list)

    out, err, status = Open3.capture3(env, RbConfig.ruby, exe, "try", "--example", "json_parse", "--check", chdir: away)
    assert status.success?, out + err
    assert_match(%r{\A#{Regexp.escape(installed)}/json_parse\.rb: JsonParse\.work follows the contract;?\s+every model can run it}, out)
    version, = Open3.capture2(env, RbConfig.ruby, exe, "--version", chdir: away)
    assert_equal "ractorbench #{Ractorbench::VERSION}\n", version
  end

  # An example is the user's file wherever the gem put it (under a gem
  # directory, like a library's files): unsafe_cache's check blames the
  # example's constant, not "the ractorbench library", and gives the fix the
  # README documents.
  def test_an_installed_example_is_checked_as_the_users_code
    env, exe, away, installed = install_gem
    out, err, status = Open3.capture3(env, RbConfig.ruby, exe, "try", "--example", "unsafe_cache", "--check", chdir: away)
    assert_equal 1, status.exitstatus, out + err
    text = unwrapped(out)
    assert_match(%r{what: +constant UnsafeCache::CACHE \(a Hash, not frozen\), defined at #{Regexp.escape(installed)}/unsafe_cache\.rb:\d+}, text)
    assert_includes text, "fix:   work changes it, and no ractor may change a value another can see: keep one per ractor " \
      "(`cache = (Ractor.current[:cache] ||= {})`)"
    refute_match(/library/, text)
  end
end
