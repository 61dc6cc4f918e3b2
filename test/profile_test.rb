# frozen_string_literal: true

require_relative "test_helper"
require "ractorbench/profile/perf"
require "ractorbench/profile/categories"

# --profile: one more run of each configuration with a profiler, after the
# timed runs and never one of them; what the profiles say next to serial's;
# and one line, not a failed collection, when no profiler can run here.
class ProfileTest < Minitest::Test
  include TempDir
  include CLIHelper

  RUBY_40 = "/opt/rubies/ruby-4.0.0/bin/ruby"
  SMALL = %w[-w fib -m serial,threads --workers 2 --messages 2 --param n=16 --reps 2 --seed 5].freeze

  def perf_problem = @perf_problem ||= [Ractorbench::Profile::Perf.problem]

  def skip_without_perf
    problem = perf_problem.first
    skip "perf cannot record on this machine: #{problem}" if problem
  end

  def profile_lines(path) = results_lines(path).select { |r| r["type"] == "profile" }

  def test_profiled_runs_are_extra_and_leave_the_figures_alone
    skip_without_perf
    path = File.join(@dir, "fib.jsonl")
    result = ractorbench("run", *SMALL, "--profile", "-o", path)
    assert_equal 0, result.code, result.err

    # The timed runs: as many as without --profile, none of them profiled.
    runs = runs_in(path)
    assert_equal 4, runs.size
    assert(runs.none? { |r| r.key?("profile") })
    profiles = profile_lines(path)
    assert_equal %w[serial threads], profiles.map { |p| p["model"] }.sort
    assert(profiles.all? { |p| p["status"] == "ok" && p["tool"] == "perf" }, profiles.map { |p| p["reason"] }.inspect)
    profiles.each { |p| assert File.file?(File.join(@dir, p["file"])), "the profile #{p["file"]} is kept beside the results" }
    assert_equal "fib.profiles", File.dirname(profiles.first["file"])

    # The same file without its profile lines gives every figure byte for byte.
    bare = File.join(@dir, "bare.jsonl")
    File.write(bare, File.readlines(path).reject { |l| l.include?('"type":"profile"') }.join)
    assert_equal ractorbench("report", bare, "--format", "csv").out, ractorbench("report", path, "--format", "csv").out
    with, without = [path, bare].map { |f| JSON.parse(ractorbench("report", f, "--format", "json").out) }
    assert_equal without["configurations"], with["configurations"]
    assert_equal 2, with["profiles"].size
    assert_equal [], without["profiles"]

    text = ractorbench("report", path, "--format", "text").out
    assert_match(/^Where the time went: One extra run of each configuration, profiled with perf/, text)
    assert_match(/^fib \(n=16\) W=2 M=2 ruby: threads against serial \(perf, core time\)$/, text)
    html = File.join(@dir, "fib.html")
    assert_equal 0, ractorbench("report", path, "--format", "html", "-o", html).code
    assert_match(%r{<h2 id="profiles">Where the time went</h2>}, File.read(html))
    assert_match(/^### Where the time went$/, ractorbench("report", path, "--format", "markdown").out)

    # A collection resumed runs the profiles it lacks, and only those.
    File.write(path, File.readlines(path).reject { |l| l.include?('"model":"threads"') && l.include?('"type":"profile"') }.join)
    resumed = ractorbench("run", "--resume", path)
    assert_equal 0, resumed.code, resumed.err
    assert_equal 4, runs_in(path).size
    assert_equal %w[serial threads], profile_lines(path).map { |p| p["model"] }.sort
  end

  # The heavy allocation of a large live heap: under ractors, GC's share of
  # the cores grows beyond serial's (the collector's own CPU and the other
  # ractor stopped meanwhile), and the profile says so by category, among
  # the three the answer names.
  def test_ractors_allocating_heavily_spend_what_grew_on_gc
    skip_without_perf
    skip "#{RUBY_40} is not installed (../shared/rubies/install.sh)" unless File.executable?(RUBY_40)
    path = File.join(@dir, "gc.jsonl")
    result = ractorbench("run", "--load", fixture("garbage_heavy.rb"), "-w", "garbage-heavy", "-m", "serial,ractors",
      "--workers", "2", "--messages", "1", "--reps", "1", "--ruby", "ruby40=#{RUBY_40}", "--profile=perf", "-o", path)
    assert_equal 0, result.code, result.err

    report = JSON.parse(ractorbench("report", path, "--format", "json").out)
    ractors = report["profiles"].find { |p| p.dig("configuration", "model") == "ractors" }
    top = ractors.dig("profile", "top").first(8)
    assert(top.any? { |f| f["category"] == "gc" && f["function"].match?(/\A(rb_)?gc_/) },
      "a GC function among the top entries: #{top.map { |f| f["function"] }}")
    grown = ractors.dig("vs_serial", "grown").map { |g| g["category"] }
    # On a busy machine waiting and locks can outgrow GC; GC still grows.
    assert_includes grown.first(3), "gc", "what grew from serial's profile, most first: #{grown}"
    assert_match(/ractors: .* what grew went [^\n]*\d+% to garbage collection/, result.err + result.out)
  end

  def test_try_says_what_grew_per_point
    skip_without_perf
    path = File.join(@dir, "try.jsonl")
    result = ractorbench("try", "--example", "string_crunch", "--workers", "2", "--reps", "1", "-m", "threads,ractors-split",
      "--profile", "-o", path)
    assert_includes [0, 1], result.code, result.err
    profiles = profile_lines(path)
    assert_equal %w[ractors-split serial threads], profiles.map { |p| p["model"] }.sort
    assert_match(/^WHERE THE TIME WENT: W=2: threads: /, result.out)
    assert_match(/^WHERE THE TIME WENT: W=2: ractors-split: /, result.out)
  end

  def test_no_perf_is_one_line_and_the_collection_completes
    path = File.join(@dir, "noperf.jsonl")
    result = ractorbench("run", *SMALL, "--profile=perf", "-o", path, env: {"RACTORBENCH_PERF" => File.join(@dir, "no-such-perf")})
    assert_equal 0, result.code, result.err
    said = result.err.lines.grep(/--profile/)
    assert_equal 1, said.size, result.err
    assert_match(/--profile=perf: perf cannot run \(.*No such file or directory.*\): install it \(Debian: apt-get install linux-perf/, said.first)
    assert_match(/collecting without profiles$/, said.first)
    assert_equal 4, runs_in(path).size
    assert_empty profile_lines(path)
  end

  # A container whose seccomp profile refuses perf_event_open (Docker's
  # default does): perf is there, the kernel says no.
  def test_no_permission_is_one_line_and_the_collection_completes
    skip_without_perf
    deny = compile_deny_perf or skip "no C compiler to build the seccomp wrapper"
    path = File.join(@dir, "denied.jsonl")
    # perf asked for by name: a Ruby that has vernier would otherwise profile with it instead.
    out, err, status = Open3.capture3(deny, RbConfig.ruby, EXE, "run", *SMALL, "--profile=perf", "-o", path)
    assert_equal 0, status.exitstatus, err + out
    said = err.lines.grep(/--profile/)
    assert_equal 1, said.size, err
    assert_match(/perf may not record here \(.*(permission|not permitted).*\): run as root, or give perf CAP_PERFMON/i, said.first)
    assert_equal 4, runs_in(path).size
    assert_empty profile_lines(path)
  end

  def test_a_ruby_that_cannot_load_vernier_is_one_line
    ruby = RbConfig.ruby
    skip "#{ruby} can load vernier" if loads_vernier?(ruby)
    path = File.join(@dir, "novernier.jsonl")
    result = ractorbench("run", *SMALL, "--profile=vernier", "-o", path)
    assert_equal 0, result.code, result.err
    said = result.err.lines.grep(/--profile/)
    assert_equal 1, said.size, result.err
    assert_match(/--profile=vernier: ruby cannot load vernier \(LoadError: cannot load such file -- vernier\): install it into that Ruby \(`.* -S gem install vernier`/, said.first)
    assert_equal 4, runs_in(path).size
    assert_empty profile_lines(path)
  end

  def test_vernier_profiles_where_the_ruby_has_it
    skip "#{RUBY_40} is not installed" unless File.executable?(RUBY_40)
    skip "#{RUBY_40} has no vernier (bin/setup installs it)" unless loads_vernier?(RUBY_40)
    path = File.join(@dir, "vernier.jsonl")
    result = ractorbench("run", "-w", "fib", "-m", "serial,ractors", "--workers", "2", "--messages", "2", "--param", "n=25",
      "--reps", "1", "--ruby", "ruby40=#{RUBY_40}", "--profile=vernier", "-o", path)
    assert_equal 0, result.code, result.err
    profiles = profile_lines(path)
    assert_equal %w[ractors serial], profiles.map { |p| p["model"] }.sort
    assert(profiles.all? { |p| p["tool"] == "vernier" && p["status"] == "ok" }, profiles.map { |p| p["reason"] }.inspect)
    ractors = profiles.find { |p| p["model"] == "ractors" }
    assert JSON.parse(File.read(File.join(@dir, ractors["file"]))).key?("threads"), "vernier's own profile kept"
    # The ractors' fib frames are the work's own Ruby code (harness/workloads/fib.rb).
    assert_operator ractors.dig("profile", "categories", "work"), :>, 0
  end

  def test_stackprof_is_refused_for_ractor_models
    result = ractorbench("run", "-w", "fib", "-m", "serial,ractors,ractors-split", "--profile=stackprof", "-o", File.join(@dir, "x.jsonl"))
    assert_usage_error result, /--profile=stackprof: stackprof is refused for ractor models \(ractors, ractors-split\): it crashes under the M:N scheduler that non-main ractors run on; use --profile=vernier/
    refute File.exist?(File.join(@dir, "x.jsonl"))
    assert_usage_error ractorbench("tour", "--profile=stackprof"), /stackprof is refused for ractor models/
  end

  def test_bad_profile_tool_and_shards
    assert_usage_error ractorbench("run", *SMALL, "--profile=gprof"), /--profile=gprof: give perf or vernier, or --profile alone/
    assert_usage_error ractorbench("run", *SMALL, "--profile", "--shard", "1/2"), /--profile and --shard do not mix/
  end

  # The table that names a function's category, on the names perf and
  # vernier give.
  def test_categories_by_function_name
    native = ->(symbol, kernel = []) { Ractorbench::Profile::Categories.native(kernel, [symbol, "/opt/ruby"], interpreter: true) }
    assert_equal "gc", native.call("gc_sweep_step")
    assert_equal "gc", native.call("rb_gc_impl_writebarrier")
    assert_equal "allocation", native.call("rb_wb_protected_newobj_of")
    assert_equal "allocation", native.call("__libc_calloc")
    assert_equal "locks", native.call("__GI___lll_lock_wait")
    assert_equal "locks", native.call("rb_ractor_sched_barrier_join")
    assert_equal "waiting", native.call("pthread_cond_wait@@GLIBC_2.3.2")
    assert_equal "messages", native.call("ractor_copy")
    assert_equal "interpreter", native.call("vm_exec_core")
    assert_equal "work", native.call("[JIT] fib@harness/workloads/fib.rb:20")
    assert_equal "kernel", native.call("_int_malloc", %w[clear_page_erms exc_page_fault])
    assert_equal "waiting", native.call(nil, %w[__schedule futex_do_wait])
    assert_equal "unnamed", Ractorbench::Profile::Categories.native([], [nil, "/usr/lib/libruby.so"], interpreter: true)
    ruby = ->(name, **o) { Ractorbench::Profile::Categories.ruby(name, waiting: false, gc: false, own: false, **o) }
    assert_equal "gc", ruby.call("Array#initialize", gc: true)
    assert_equal "waiting", ruby.call("Ractor::Port#receive", waiting: true, gc: true)
    assert_equal "messages", ruby.call("Ractor#send")
    assert_equal "allocation", ruby.call("Array.new")
    assert_equal "work", ruby.call("Fib.work", own: true)
    assert_equal "interpreter", ruby.call("Integer#times")
  end

  private

  # As a run's child would: without the bundle this test runs in.
  def loads_vernier?(ruby)
    check = -> { Open3.capture3(ruby, "-e", "require 'vernier'").last.success? }
    defined?(Bundler) ? Bundler.with_unbundled_env(&check) : check.call
  end

  def compile_deny_perf
    source = File.join(FIXTURES, "deny_perf.c")
    binary = File.join(@dir, "deny_perf")
    _, _, status = Open3.capture3("cc", "-O", "-o", binary, source)
    status.success? ? binary : nil
  rescue Errno::ENOENT
    nil
  end
end
