# frozen_string_literal: true

require "test_helper"
require "digest"

# `try --check` finds every reason work cannot run in a ractor in one
# check, at its line, on every Ruby; Ractor-safe idioms give no finding;
# `try --fix` writes a copy with every mechanical fix that passes the
# check and computes in ractors what the user's file computes serially,
# the user's file unchanged. The corpus marks each known problem where
# work meets it: `# expect: KIND`.
class TryEveryProblemTest < Minitest::Test
  include CLIHelper
  include TempDir

  CORPUS = File.join(ROOT, "test/fixtures/ractor_corpus")
  SAFE = File.join(ROOT, "test/fixtures/ractor_safe")
  RUBIES = {"3.4" => "/opt/rubies/ruby-3.4.0/bin/ruby", "4.0" => "/opt/rubies/ruby-4.0.0/bin/ruby"}.freeze
  # A finding's kind, from the words of its "what:".
  KINDS = [[/\Aclass variable/, "cvar"], [/\Aglobal variable/, "global"], [/\Aconstant .*\(a Proc/, "proc"],
    [/\Aconstant/, "constant"], [/\A@\w+ of /, "ivar"], [/define_method/, "define_method"],
    [/loaded on first use|\A`require/, "lazy_load"], [/C method/, "c_method"]].freeze

  def corpus = Dir[File.join(CORPUS, "*.rb")].sort

  # [kind, "path:line"] of every problem the file and the files it
  # requires mark ("# expect: KIND, KIND" for several at one line).
  # ruby: :any for every mark, whichever Ruby it exists on.
  def expected(file, ruby)
    helpers = File.read(file).scan(/require_relative "([^"]+)"/).flatten.map { |r| File.join(File.dirname(file), "#{r}.rb") }
    [file, *helpers].flat_map do |path|
      File.readlines(path).each_with_index.flat_map do |line, i|
        kinds = line[/# expect: ([\w, ]+)/, 1].to_s.split(/,\s*/)
        kinds.select { |kind| kind != "lazy_load" || ruby == :any || lazy_loading_fails?(ruby) }.map { |kind| [kind, "#{short(path)}:#{i + 1}"] }
      end
    end.sort
  end

  def short(path) = path.delete_prefix("#{ROOT}/")

  # [kind, "path:line"] of every finding printed.
  def found(out)
    unwrapped(out).gsub(/\n {9}(?=\S)/, " ").scan(/^  what:  (.*)\n  where: (\S+)/).map do |what, at|
      [KINDS.find { |pattern, _| what.match?(pattern) }&.last || what, at]
    end.sort
  end

  def check(file, ruby = nil, *args)
    result = ractorbench("try", short(file), "--check", *(ruby ? ["--ruby", ruby] : []), *args, chdir: ROOT)
    refute_match(/\.rb:\d+:in /, result.out + result.err, "no stack trace")
    result
  end

  # Whether a ractor other than the main one may not load code on this
  # Ruby (3.1 raises; 3.4 hands the require to the main ractor): asked of
  # the Ruby, never of its version.
  def lazy_loading_fails?(ruby)
    @lazy ||= {}
    @lazy.fetch(ruby) do
      script = 'require "digest"; Warning[:experimental] = false; r = Ractor.new { Digest::SHA256.hexdigest("x") }; ' \
               "r.respond_to?(:value) ? r.value : r.take"
      env = defined?(Bundler) ? Bundler.unbundled_env : ENV.to_h
      _, _, status = Open3.capture3(env, ruby || RbConfig.ruby, "-e", script, unsetenv_others: true)
      @lazy[ruby] = !status.success?
    end
  end

  def every_problem_in_one_check(ruby = nil)
    files = corpus
    assert_operator files.size, :>=, 10
    total = files.sum { |f| expected(f, :any).size }
    assert_operator total, :>=, 30, "the corpus marks at least 30 problems"
    files.each do |file|
      result = check(file, ruby)
      want = expected(file, ruby)
      assert_equal want.empty? ? 0 : 1, result.code, result.out + result.err
      assert_equal want, found(result.out), "#{short(file)} on #{ruby || RUBY_VERSION}:\n#{result.out}"
    end
  end

  def test_every_problem_in_one_check_on_this_ruby = every_problem_in_one_check

  def test_every_problem_in_one_check_on_ruby_3_4 = every_problem_in_one_check(installed("3.4"))

  def test_every_problem_in_one_check_on_ruby_4_0 = every_problem_in_one_check(installed("4.0"))

  def installed(version)
    path = RUBIES.fetch(version)
    skip "#{path} is not installed (shared/rubies/install.sh installs it)" unless File.executable?(path)
    path
  end

  # Two problems in one method, and three met only in a helper's file.
  def test_the_corpus_has_what_the_issue_asks_for
    marks = corpus.flat_map { |f| expected(f, :any) }
    kinds = marks.map(&:first).tally
    %w[constant ivar cvar global define_method lazy_load c_method].each do |kind|
      assert_operator kinds.fetch(kind, 0), :>=, 2, kind
    end
    assert(marks.any? { |_, at| at.include?("/lib/") }, "a problem reached only through a helper in another file")
  end

  def test_the_order_is_the_codes_and_a_helpers_module_is_named
    out = unwrapped(check(File.join(CORPUS, "uses_helper.rb")).out)
    wheres = out.scan(/^  where: (\S+)/).flatten
    assert_equal ["uses_helper.rb:10", "lib/scaling.rb:13", "lib/scaling.rb:14", "lib/scaling.rb:15"],
      wheres.map { |w| w.delete_prefix("test/fixtures/ractor_corpus/") }
    assert_match(/what:  @applied of Scaling, set at test\/fixtures\/ractor_corpus\/lib\/scaling\.rb:10/, out)
    assert_match(/checked: first 8 items in a ractor \(\d+ rounds\)/, out)
  end

  # csv is a gem on Ruby 4.0 (a default library on 3.1, with no version).
  def test_a_problem_inside_a_gem_names_the_gem_and_its_version
    result = check(fixture("try/library_use.rb"), installed("4.0"))
    assert_match(/what:  constant CSV::Converters \(a Hash, not frozen\), of the csv library \(csv\.rb:\d+\), from the gem csv \d+\.\d+\.\d+/,
      unwrapped(result.out))
  end

  def test_ractor_safe_idioms_give_no_finding
    rubies = [nil, *RUBIES.values.select { |r| File.executable?(r) }]
    Dir[File.join(SAFE, "*.rb")].sort.each do |file|
      rubies.each do |ruby|
        result = check(file, ruby)
        assert_equal 0, result.code, "#{short(file)} on #{ruby || RUBY_VERSION}: #{result.out}#{result.err}"
        assert_match(/every model can run it/, unwrapped(result.out))
        refute_match(/what:/, result.out)
      end
    end
  end

  # Every mechanical fix applied; the copy passes the check, and computes in
  # ractors what the user's file computes serially; the user's files are
  # unchanged byte for byte. C methods only the main ractor may call are
  # left, with their manual fix.
  def test_fix_on_the_corpus
    FileUtils.cp_r(CORPUS, @dir)
    dir = File.join(@dir, "ractor_corpus")
    originals = Dir[File.join(dir, "**/*.rb")].to_h { |f| [f, Digest::SHA256.file(f).hexdigest] }
    Dir[File.join(dir, "*.rb")].sort.each do |file|
      result = ractorbench("try", file, "--fix", "--check", chdir: ROOT)
      out = unwrapped(result.out)
      refute_match(/\.rb:\d+:in /, out + result.err, "no stack trace")
      copy = file.sub(/\.rb\z/, ".ractor_fixed.rb")
      if expected(File.join(CORPUS, File.basename(file)), nil).empty? # a kind this Ruby does not have
        assert_match(/nothing to fix, no copy written/, out)
        refute File.exist?(copy)
        next
      end
      assert File.exist?(copy), "#{file}: #{out}#{result.err}"
      manual = File.read(file).scan("# expect: c_method").size
      flat = out.gsub(/\s+/, " ")
      problems = flat[/(\d+) of (\d+) problems? fixed mechanically/, 2].to_i
      assert_operator problems, :>=, 2
      assert_match(/#{problems - manual} of #{problems} problems fixed mechanically; your file is unchanged/, flat)
      assert_equal manual, out.scan(/^  left: .*C method/).size, out
      if manual.zero?
        assert_equal 0, result.code, out
        assert_match(/ractor_fixed\.rb: [\w:]+\.work follows the contract\n  every model can run it/, out)
        assert_equal serial_results(file), ractor_results(copy), "#{File.basename(copy)} in ractors against #{File.basename(file)} serially"
      else
        assert_match(/only the main ractor may call/, out)
      end
    end
    originals.each { |f, digest| assert_equal digest, Digest::SHA256.file(f).hexdigest, "#{f} unchanged" }
  end

  def test_fix_on_a_ractor_safe_file_writes_nothing
    FileUtils.cp(File.join(SAFE, "per_ractor_state.rb"), @dir)
    file = File.join(@dir, "per_ractor_state.rb")
    result = ractorbench("try", file, "--fix", "--check", chdir: ROOT)
    assert_equal 0, result.code, result.out + result.err
    assert_match(/--fix: ractors can run .*per_ractor_state\.rb as written: nothing to fix, no copy written/, unwrapped(result.out))
    assert_equal ["per_ractor_state.rb"], Dir.children(@dir)
  end

  def test_fix_refuses_to_write_over_the_users_file
    FileUtils.cp(File.join(CORPUS, "counter.rb"), @dir)
    file = File.join(@dir, "counter.rb")
    before = File.read(file)
    result = ractorbench("try", file, "--fix-to", file, "--check", chdir: ROOT)
    assert_usage_error(result, /--fix-to .*counter\.rb: that is your own file; --fix never writes over it/)
    assert_equal before, File.read(file)
  end

  # The proof by timing: the fixed copy swept, ractors included, each
  # model's results checked against serial's.
  def test_fix_sweeps_the_copy_with_ractors
    FileUtils.cp(File.join(CORPUS, "counter.rb"), @dir)
    file = File.join(@dir, "counter.rb")
    results = File.join(@dir, "fixed.jsonl")
    result = ractorbench("try", file, "--fix", "--workers", "2", "--reps", "1", "--items", "40", "-o", results, chdir: ROOT)
    assert_equal 0, result.code, result.out + result.err
    runs = File.readlines(results).map { |l| JSON.parse(l) }.select { |r| r["type"] == "run" }
    ractors = runs.select { |r| r["model"].start_with?("ractor") }
    refute_empty ractors
    assert(runs.all? { |r| r["status"] == "ok" }, runs.map { |r| [r["model"], r["status"]] }.inspect)
    assert_equal 1, runs.map { |r| r["digest"] }.uniq.size, "every model computed serial's results"
  end

  RUNNER = <<~RUBY
    Warning[:experimental] = false
    require ARGV[0]
    mod = ObjectSpace.each_object(Module).find { |m| m.name && m.singleton_class.method_defined?(:work) && m.method(:work).source_location&.first == ARGV[0] }
    items = mod.respond_to?(:items) ? mod.items(24) : (1..24).to_a
    results = if ARGV[1] == "ractors"
      workers = items.each_slice(12).map do |slice|
        Ractor.new(mod, slice) { |m, list| list.map { |i| m.work(i) } }
      end
      workers.flat_map { |r| r.respond_to?(:value) ? r.value : r.take }
    else
      items.map { |i| mod.work(i) }
    end
    print Marshal.dump(results)
  RUBY

  def run_items(file, how)
    env = defined?(Bundler) ? Bundler.unbundled_env : ENV.to_h
    out, err, status = Open3.capture3(env, RbConfig.ruby, "-e", RUNNER, File.expand_path(file), how, unsetenv_others: true)
    assert status.success?, err
    Marshal.load(out) # rubocop:disable Security/MarshalLoad -- our own child's output
  end

  def serial_results(file) = run_items(file, "serial")

  def ractor_results(file) = run_items(file, "ractors")
end
