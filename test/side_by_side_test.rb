# frozen_string_literal: true

require "test_helper"

# `report --by ruby` and `--by machine`, `compare --by machine`: each model's
# speedup over serial on each Ruby (or machine), side by side, from real
# collections.
class SideBySideTest < Minitest::Test
  include CLIHelper
  include TempDir

  RUBY40 = "/opt/rubies/ruby-4.0.0/bin/ruby"
  PLAN = ["-w", "tarai", "-m", "serial,threads,ractors", "--workers", "2", "--reps", "3", "--scale", "0.001"].freeze

  def collect(out, *rubies)
    result = ractorbench("run", *PLAN, *rubies, "-o", out, "--format", "csv")
    assert_equal 0, result.code, result.err
  end

  def json(*args)
    result = ractorbench("report", *args, "--format", "json", env: {"NO_COLOR" => "1"})
    assert_equal 0, result.code, result.err
    JSON.parse(result.out)
  end

  # The host Ruby and 4.0.0 in one collection (or the host Ruby twice,
  # named apart, where 4.0.0 is not installed): one column each.
  def test_report_by_ruby_sets_each_rubys_speedups_side_by_side
    other = File.executable?(RUBY40) ? RUBY40 : RbConfig.ruby
    out = File.join(@dir, "two.jsonl")
    collect(out, "--ruby", "host=#{RbConfig.ruby}", "--ruby", "other=#{other}")

    data = json(out, "--by", "ruby")
    assert_equal %w[host other], data["sides"].map { |s| s["name"] }
    assert_equal [["tarai", 2, 1]], data["panels"].map { |p| p.values_at("workload", "workers", "messages") }
    models = data["panels"].first["models"]
    assert_equal %w[serial ractors threads], models.map { |m| m["model"] }
    models.each do |m|
      %w[host other].each do |ruby|
        row = m["sides"].fetch(ruby)
        assert_equal ruby, row["ruby"]
        assert_includes 1..3, row["samples"]
        next if m["model"] == "serial"

        serial = models.first["sides"].fetch(ruby)["messages_time"]["median"]
        assert_in_delta serial / row["messages_time"]["median"], row["speedup"], 1e-9, "speedup = serial's median / the model's"
      end
    end

    # Wide enough for both sides in one table even when the busy machine
    # disturbed most runs of a cell, which then says so ("(3/3 disturbed)").
    text = ractorbench("report", out, "--by", "ruby", env: {"COLUMNS" => "200", "NO_COLOR" => "1"})
    assert_equal 0, text.code, text.err
    header = text.out.lines.find { |l| l.include?("model") }
    assert_match(/workload\s*\|\s*W×M\s*\|\s*model\s*\|\s*host\s*\|\s*other/, header)
    ractors = text.out.lines.find { |l| l.include?(" ractors ") }
    # With its interval or spread where the runs allow one (runs the busy
    # machine disturbed stay out, so n may be lower).
    assert_equal 2, ractors.scan(/\d+\.\d\d×(?: \[[\d.]+, [\d.]+\]| ±\d+%)? n=[1-3]/).size, ractors
    assert_match(%r{\A\|\s+tarai\s+\|\s+2×1\s+\|\s+serial\s+\|\s+[\d.]+(?:ms|µs|s)(?: ±\d+%)? n=[1-3](?: \([1-3]/3 disturbed\))? \|},
      text.out.lines.find { |l| l.start_with?("| tarai") })
    assert_includes text.out, "host: #{RUBY_DESCRIPTION}"

    html = File.join(@dir, "by_ruby.html")
    page = ractorbench("report", out, "--by", "ruby", "--format", "html", "-o", html)
    assert_equal 0, page.code, page.err
    assert_match(/tarai W=2 M=1: speedup over serial on each ruby/, File.read(html))
    assert_equal 4, File.read(html).scan(/<rect[^>]*class="bar"/).size, "a bar per model (threads, ractors) and Ruby"
  end

  # Two collections of one plan, the second as another machine would have
  # written it (its header's machine is another's: this test has one
  # machine), merged and set side by side.
  def test_merge_keeps_each_machine_for_report_and_compare_by_machine
    laptop = File.join(@dir, "laptop.jsonl")
    server = File.join(@dir, "server.jsonl")
    collect(laptop)
    collect(server)
    lines = File.readlines(server)
    header = JSON.parse(lines.first)
    header["machine"] = header["machine"].merge("hostname" => "server", "cpu_model" => "Another CPU", "usable_cores" => 64, "cores" => 64)
    File.write(server, ([JSON.generate(header) + "\n"] + lines.drop(1)).join)

    merged = File.join(@dir, "all.jsonl")
    result = ractorbench("merge", laptop, server, "-o", merged)
    assert_equal 0, result.code, result.err
    assert_match(/merged 18 runs of 2 files \(2 machines: .+, server\)/, result.err)
    sources = results_lines(merged).first["merged"]["sources"]
    assert_equal 64, sources.last["header"]["machine"]["usable_cores"], "each machine's header is kept"
    assert_equal [9, 9], runs_in(merged).group_by { |r| r["machine"] }.values.map(&:size)

    data = json(merged, "--by", "machine")
    names = data["sides"].map { |s| s["name"] }
    assert_equal "server", names.last
    assert_match(/Another CPU, 64 usable of 64 cores/, data["sides"].last["description"])
    panel = data["panels"].first
    assert_equal "ruby", panel["ruby"]
    ractors = panel["models"].find { |m| m["model"] == "ractors" }["sides"]
    assert_equal names, ractors.keys
    assert ractors.values.all? { |row| row["samples"].positive? && row["speedup"] }

    compare = ractorbench("compare", merged, "--by", "machine", "--format", "json")
    # 3: the busy machine disturbed most runs of a side, and compare says it cannot judge.
    assert_includes [0, 3], compare.code, compare.err
    rows = JSON.parse(compare.out)["against"].first["rows"]
    assert_equal 3, rows.size, compare.out
    assert rows.all? { |r| r["verdict"] == "disturbed" }, compare.out if compare.code == 3

    pooled = ractorbench("report", merged, "--format", "csv")
    assert_equal 0, pooled.code, pooled.err
    assert_match(/holds runs of 2 machines \(.+, server\), pooled in these figures; .*--by machine/, pooled.err)

    # Merging the merged file with a third machine's keeps all three.
    third = File.join(@dir, "third.jsonl")
    header["machine"]["hostname"] = "third"
    File.write(third, ([JSON.generate(header) + "\n"] + lines.drop(1)).join)
    all3 = File.join(@dir, "all3.jsonl")
    again = ractorbench("merge", merged, third, "-o", all3)
    assert_equal 0, again.code, again.err
    assert_match(/3 machines: .+, server, third/, again.err)
    assert_usage_error(ractorbench("merge", merged, server, "-o", File.join(@dir, "x.jsonl")), /both hold run .* of one machine/)
    assert_usage_error(ractorbench("report", laptop, "--by", "machine"), /holds the runs of one machine .*`ractorbench merge`/)
    assert_usage_error(ractorbench("compare", laptop, "--by", "machine"), /holds the runs of one machine/)
  end

  # More Rubies than a terminal's width holds: the sides go on in a second
  # table with the same lines; into a file (no COLUMNS) one table.
  def test_sides_that_do_not_fit_the_width_go_on_in_another_table
    out = File.join(@dir, "four.jsonl")
    rubies = %w[a b c d].flat_map { |name| ["--ruby", "#{name}=#{RbConfig.ruby}"] }
    result = ractorbench("run", "-w", "tarai", "-m", "serial,threads", "--workers", "2", "--reps", "2", "--scale", "0.001",
      *rubies, "-o", out, "--format", "csv")
    assert_equal 0, result.code, result.err

    narrow = ractorbench("report", out, "--by", "ruby", env: {"COLUMNS" => "80", "NO_COLOR" => "1"})
    assert_equal 0, narrow.code, narrow.err
    assert_operator narrow.out.lines.map { |l| l.chomp.length }.max, :<=, 80
    headings = narrow.out.lines.grep(/\A\| workload/)
    assert_operator headings.size, :>=, 2, narrow.out
    assert_equal %w[a b c d], headings.flat_map { |h| h.split("|").map(&:strip).drop(4).reject(&:empty?) }
    assert_equal headings.size * 2, narrow.out.lines.grep(/\A\| tarai|\A\|\s+\|\s+\|\s+threads/).size, "each table has every line"

    whole = File.join(@dir, "by_ruby.txt")
    assert_equal 0, ractorbench("report", out, "--by", "ruby", "-o", whole).code
    assert_equal 1, File.readlines(whole).grep(/\A\| workload/).size
  end
end
