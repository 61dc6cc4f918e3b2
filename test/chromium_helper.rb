# frozen_string_literal: true

require "open3"
require "tmpdir"

# Headless Chromium (Debian's `chromium`, installed by bin/setup) renders the
# HTML report in the tests. Missing Chromium fails the test with what to do;
# it never skips silently.
module ChromiumHelper
  FLAGS = %w[--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
    --no-first-run --disable-sync --hide-scrollbars].freeze

  def chromium
    @chromium ||= ENV["CHROMIUM"] || %w[chromium chromium-browser google-chrome].find do |name|
      ENV["PATH"].split(File::PATH_SEPARATOR).any? { |dir| File.executable?(File.join(dir, name)) }
    end || flunk("chromium is not installed: run bin/setup (apt-get install chromium), or set CHROMIUM=/path/to/it")
  end

  # [stdout, the browser's log lines that report page console messages]
  def chromium_run(*args)
    Dir.mktmpdir do |profile|
      out, err, status = Open3.capture3("timeout", "120", chromium, *FLAGS, "--user-data-dir=#{profile}",
        "--enable-logging=stderr", "--v=0", *args)
      assert status.success?, "chromium failed (#{status.exitstatus}):\n#{err.lines.last(10).join}"
      [out, err.lines.grep(/:CONSOLE|Uncaught|Refused to/)]
    end
  end

  def dump_dom(html_path) = chromium_run("--dump-dom", "file://#{html_path}")

  def screenshot(html_path, png_path, size: "1280,1600")
    chromium_run("--window-size=#{size}", "--screenshot=#{png_path}", "file://#{html_path}")
  end
end
