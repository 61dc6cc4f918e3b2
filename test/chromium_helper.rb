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

# The page as a phone or a desktop lays it out, measured by a script run in
# a copy of it (the report itself runs no script: its CSP forbids them):
# elements wider than the viewport that are not inside a box that scrolls
# on its own, the smallest text as drawn (SVG text scaled with its chart),
# and how wide the page would scroll.
module LayoutCheck
  SCRIPT = <<~JS
    (function () {
      var vw = document.documentElement.clientWidth, out = [], min = 1e9, minText = "";
      var all = document.body.querySelectorAll("*");
      for (var i = 0; i < all.length; i++) {
        var el = all[i], r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        var parent = el.parentElement && el.parentElement.closest(".scroll");
        if (!parent && (r.right > vw + 1 || r.left < -1)) {
          out.push(el.tagName + "." + (el.getAttribute("class") || "") + " " + Math.round(r.left) + ".." + Math.round(r.right));
        }
        var texty = false;
        for (var j = 0; j < el.childNodes.length; j++) {
          var n = el.childNodes[j];
          if (n.nodeType === 3 && n.textContent.trim() !== "") texty = true;
        }
        if (!texty) continue;
        var size = parseFloat(getComputedStyle(el).fontSize);
        var m = el instanceof SVGElement && el.getScreenCTM();
        if (m) size = size * Math.sqrt(m.a * m.a + m.b * m.b); // the scale, rotated or not
        if (size < min) { min = size; minText = el.textContent.trim().slice(0, 60); }
      }
      var labels = Array.prototype.map.call(document.querySelectorAll("svg text.bar-label, svg text.legend:not(.note)"),
        function (t) { return t.textContent; });
      var pre = document.createElement("pre");
      pre.id = "layout-check";
      pre.textContent = JSON.stringify({viewport: vw, scroll_width: document.documentElement.scrollWidth,
        too_wide: out, min_text_px: min, min_text: minText, labels: labels});
      document.body.appendChild(pre);
    })();
  JS

  # {"viewport", "scroll_width", "too_wide", "min_text_px", "min_text", "labels"} at width CSS pixels.
  def layout_at(html_path, width)
    copy = html_path.sub(/\.html\z/, "-check-#{width}.html")
    page = File.read(html_path).sub(/<meta http-equiv="Content-Security-Policy"[^>]*>/, "")
    File.write(copy, page.sub("</body>", "<script>#{SCRIPT}</script></body>"))
    dom, = chromium_run("--window-size=#{width},2000", "--dump-dom", "file://#{copy}")
    json = dom[%r{<pre id="layout-check">(.*?)</pre>}m, 1]
    assert json, "the layout check ran in the page"
    JSON.parse(CGI.unescapeHTML(json))
  end
end
