# frozen_string_literal: true

require_relative "test_helper"

# bin/setup on a machine where a step fails: it stops with a non-zero status
# and one line saying what failed and what to do, instead of going on (or
# exiting 0) as if the machine were ready.
class SetupScriptTest < Minitest::Test
  include TempDir

  SETUP = File.join(ROOT, "bin", "setup")

  # A PATH holding only these commands (links to the real ones), so that
  # chromium, tmux, mruby, perf and a C compiler are missing however this
  # machine is set up.
  def path_with(*commands, **scripts)
    bin = File.join(@dir, "bin")
    FileUtils.mkdir_p(bin)
    commands.each do |name|
      real = ENV["PATH"].split(File::PATH_SEPARATOR).map { |d| File.join(d, name) }.find { |f| File.executable?(f) }
      assert real, "#{name} is not on this machine's PATH"
      File.symlink(real, File.join(bin, name))
    end
    scripts.each do |name, body|
      File.write(File.join(bin, name.to_s), "#!/bin/sh\n#{body}\n")
      File.chmod(0o755, File.join(bin, name.to_s))
    end
    bin
  end

  # Without the test's own Bundler (bundle exec's RUBYOPT), as a user runs it.
  def run_setup(path, env = {})
    clean = {"PATH" => path, "RUBYOPT" => nil, "RUBYLIB" => nil, "BUNDLER_SETUP" => nil, "BUNDLE_BIN_PATH" => nil}
    Open3.capture3(clean.merge(env), SETUP, chdir: @dir)
  end

  # apt-get stands in for a broken package manager (no network, a bad
  # source): it fails the way apt does. Without root, sudo just runs it.
  def test_a_failed_apt_get_stops_setup_with_one_line
    sudo = Process.uid.zero? ? {} : {sudo: 'exec "$@"'}
    bin = path_with("bash", "dirname", "id", "env", "bundle", "ruby",
      "apt-get": %(echo "E: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease" >&2; exit 100), **sudo)
    out, err, status = run_setup(bin)
    refute status.success?, "setup exited 0 although apt-get failed:\n#{out}#{err}"
    lines = err.lines
    assert_equal "E: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease\n", lines.first, "apt's own error comes first"
    assert_equal "bin/setup: apt-get could not install chromium tmux mruby libmruby-dev linux-perf gcc g++ make (its error is above): " \
      "fix apt or install them another way, then run bin/setup again\n", lines.last
    assert_equal 2, lines.size
  end

  # A real bundle that fails (no Gemfile where it is told to look).
  def test_a_failed_bundle_install_stops_setup_with_one_line
    bin = path_with("bash", "dirname", "id", "env", "bundle", "ruby", chromium: "exit 0", tmux: "exit 0", mruby: "exit 0",
      perf: "exit 0", cc: "exit 0")
    _, err, status = run_setup(bin, "BUNDLE_GEMFILE" => File.join(@dir, "no", "Gemfile"))
    refute status.success?
    assert_equal "bin/setup: bundle install failed (its error is above): fix it, then run bin/setup again\n", err.lines.last
    # Bundler's own wording differs between its versions; it names the Gemfile.
    assert_match(/no\/Gemfile/, err.lines[0...-1].join, "bundle's own error is kept")
    assert_equal 1, err.lines.grep(/bin\/setup/).size
  end
end
