# frozen_string_literal: true

require "test_helper"

# `try --check` runs the user's work where a sweep first meets it: inside a
# real ractor and in threads side by side, each in a fresh process whose main
# ractor has never called work. It follows every problem in one pass, names
# each constant where it really lives, and prints a fix only after loading a
# copy of the file with it and checking again.
class TryCheckTest < Minitest::Test
  include CLIHelper
  include TempDir

  RUBY4 = "/opt/rubies/ruby-4.0.0/bin/ruby"

  def check(file, *args)
    result = ractorbench("try", file, "--check", *args, chdir: ROOT)
    refute_match(/\.rb:\d+:in /, result.out + result.err, "no stack trace")
    [result, unwrapped(result.out)]
  end

  # Whether this Ruby lets a ractor other than the main one load code (Ruby
  # 3.4 hands a require to the main ractor; 3.1 raises). Asked of the Ruby
  # itself, never of its version number.
  def lazy_loading_fails_in_ractors?
    script = 'require "digest"; Warning[:experimental] = false; r = Ractor.new { Digest::SHA256.hexdigest("x") }; ' \
             "r.respond_to?(:value) ? r.value : r.take"
    # As try's children run: without Bundler's setup, which loads digest itself.
    env = defined?(Bundler) ? Bundler.unbundled_env : ENV.to_h
    _, _, status = Open3.capture3(env, RbConfig.ruby, "-e", script, unsetenv_others: true)
    !status.success?
  end

  def fix_lines(out) = out.lines.grep(/^ {11}\S/).map(&:strip)

  def test_a_library_constant_first_use_loading_and_the_users_constant_in_one_check
    result, out = check("test/fixtures/try/library_use.rb")
    assert_equal 1, result.code, result.out + result.err
    assert_match(/^ractors: cannot run this work: not Ractor-safe \(\d problems, found in one check\)$/, out)
    # csv's own constant: a fix in the user's file; the library is never to be edited
    assert_match(/what:  constant CSV::Converters \(a Hash, not frozen\), of the csv library \(csv\.rb:\d+\)/, out)
    assert_match(%r{where: test/fixtures/try/library_use\.rb:16   row = CSV\.parse_line}, out)
    assert_match(/fix:   add these lines at the end of test\/fixtures\/try\/library_use\.rb, .*\(checked: a copy of /, out)
    assert_includes fix_lines(out).map { |l| l.sub(/ #.*/, "") }, "Ractor.make_shareable(CSV::Converters)"
    refute_match(/where it is defined|edit the library|shareable_constant_value/, out)
    # the user's own constant, with where it is defined and where work reads it
    assert_match(%r{what:  constant LibraryUse::FIELDS \(an Array, not frozen\), defined at test/fixtures/try/library_use\.rb:11}, out)
    assert_match(%r{where: test/fixtures/try/library_use\.rb:17   Digest::SHA256\.hexdigest\(FIELDS}, out)
    assert_includes fix_lines(out), "Ractor.make_shareable(LibraryUse::FIELDS)"
    return unless lazy_loading_fails_in_ractors?

    # Digest::SHA256 loads itself on first use: the error names rubygems'
    # lock, the fix is to load it at load time, in the main ractor.
    assert_match(%r{what:  Digest::SHA256, loaded on first use \(digest\.rb:\d+ in const_missing\)\n  where: test/fixtures/try/library_use\.rb:17}, out)
    assert_includes fix_lines(out), "Digest::SHA256 # loads it now, in the main ractor"
    refute_match(/RUBYGEMS_ACTIVATION_MONITOR/, out, "the fix is not about rubygems' own lock")
  end

  # The Digest workload of issue 13, alone: its check used to pass, and every
  # ractors run of the sweep then failed.
  def test_a_lazily_loaded_constant_alone_is_caught
    skip "this Ruby loads code for a ractor in the main ractor: nothing to catch" unless lazy_loading_fails_in_ractors?
    File.write(File.join(@dir, "sha.rb"), <<~RUBY)
      require "digest"

      module Sha
        def self.work(item) = Digest::SHA256.hexdigest(item.to_s)
      end
    RUBY
    result, out = check(File.join(@dir, "sha.rb"))
    assert_equal 1, result.code, result.out + result.err
    assert_match(/what:  Digest::SHA256, loaded on first use/, out)
    assert_equal ["Digest::SHA256 # loads it now, in the main ractor"], fix_lines(out)
  end

  # Threads that first use Digest::SHA256 at once race while it loads (on
  # Ruby 3.1 a thread now and then meets the class defined but not set up).
  # The fixture makes the race happen every time, in the sweep only: the
  # failed threads run is tied to the fix the check printed for ractors.
  def test_a_load_race_in_the_sweeps_threads_is_tied_to_the_fix_above
    skip "this Ruby loads code for a ractor in the main ractor: no fix to tie it to" unless lazy_loading_fails_in_ractors?
    result = ractorbench("try", "test/fixtures/try/sha_race.rb", "--models", "threads", "--workers", "2", "--reps", "1",
      "--items", "12", "-o", File.join(@dir, "race.jsonl"), chdir: ROOT)
    assert_equal 1, result.code, result.out + result.err
    out = result.out.gsub(/\n {6}(?! )/, " ")
    assert_includes fix_lines(unwrapped(result.out)), "Digest::SHA256 # loads it now, in the main ractor"
    # The race is real: on a loaded machine the check's own threads pass
    # can meet it first. Then threads are not swept, and the check's
    # finding carries the same tie (the next test makes that happen).
    if out.match?(/^threads: cannot run/)
      assert_includes unwrapped(result.out), "fix:   the fix above for ractors (`Digest::SHA256` at the end of sha_race.rb) " \
        "loads it when the file loads, before any thread starts: it ends this race too\n"
    else
      assert_match(/^  threads: 1 of 1 failed; W=2 rep 1: raised RuntimeError: Digest::Base cannot be directly inherited in Ruby \(test\/fixtures\/try\/sha_race\.rb:26, item \d\)$/, out)
      assert_includes out, "\n    why: Digest::SHA256 is loaded on first use, and several threads ran this line first at once: one met " \
        "it half loaded; the fix above for ractors (`Digest::SHA256` at the end of sha_race.rb) loads it when the file " \
        "loads, before any thread starts: it ends this race too\n"
    end
  end

  # The same race met by the check's own threads pass: its threads finding
  # says so and points to the same fix.
  def test_a_load_race_in_the_checks_threads_is_tied_to_the_fix_above
    skip "this Ruby loads code for a ractor in the main ractor: no fix to tie it to" unless lazy_loading_fails_in_ractors?
    result = ractorbench("try", "test/fixtures/try/sha_race.rb", "--check", chdir: ROOT, env: {"RACE_FROM" => "1"})
    assert_equal 1, result.code, result.out + result.err
    out = unwrapped(result.out)
    assert_match(/^threads: cannot run this work safely: it fails in threads side by side$/, out)
    assert_match(/what:  work\(item \d\) raised RuntimeError: Digest::Base cannot be directly inherited in Ruby with 4 threads/, out)
    assert_includes out, "why:   Digest::SHA256 is loaded on first use, and several threads ran this line first at once: " \
      "one met it half loaded\n"
    assert_includes out, "fix:   the fix above for ractors (`Digest::SHA256` at the end of sha_race.rb) loads it when the " \
      "file loads, before any thread starts: it ends this race too\n"
  end

  def test_three_constants_in_one_check_and_a_fix_that_loads_and_passes
    result, out = check("examples/fixes/three_constants.rb")
    assert_equal 1, result.code, result.out + result.err
    assert_match(/\(3 problems, found in one check\)/, out)
    file = "examples/fixes/three_constants.rb"
    {"Object::BODIES (an Array, not frozen)" => 7, "ThreeConstants::MASSES (a Hash, not frozen)" => 11,
     "ThreeConstants::NAMES (an Array, not frozen)" => 12}.each do |what, line|
      assert_match(/what:  constant #{Regexp.escape(what)}, defined at #{file}:#{line}\n  where: #{file}:15   BODIES\.sum/, out)
    end
    lines = fix_lines(out)
    assert_equal ["Ractor.make_shareable(BODIES)", "Ractor.make_shareable(ThreeConstants::MASSES)",
      "Ractor.make_shareable(ThreeConstants::NAMES)"], lines
    assert_match(/fix:   add these lines at the end of #{file}, .*\(checked: /, out)

    # The printed fix, applied by hand: the file loads and a second check passes.
    fixed = File.join(@dir, "three_constants.rb")
    File.write(fixed, File.read(File.join(ROOT, file)) + lines.join("\n") + "\n")
    again, = check(fixed)
    assert_equal 0, again.code, again.out + again.err
    assert_match(/ThreeConstants\.work follows the contract(; |\n  )every model can run it/, again.out)

    # What the fix avoids: freezing BODIES where it is defined breaks loading.
    frozen_early = File.join(@dir, "frozen_early.rb")
    File.write(frozen_early, File.read(File.join(ROOT, file)).sub("BODIES = []", "BODIES = Ractor.make_shareable([])"))
    broken, = check(frozen_early)
    assert_usage_error(broken, /frozen_early\.rb:8: loading it raised FrozenError/)
  end

  # Ruby 3.1's message names the lexical scope ("ThreeConstants::BODIES", no
  # such constant); 4.0's names the owner. Both are reported as the owner.
  def test_the_owner_of_a_top_level_constant_used_from_a_module
    _, out = check("examples/fixes/three_constants.rb")
    assert_match(/what:  constant Object::BODIES \(an Array, not frozen\)/, out)
    refute_match(/ThreeConstants::BODIES/, out)
  end

  def test_the_owner_of_a_top_level_constant_on_ruby_4
    skip "#{RUBY4} is not installed (shared/rubies/install.sh installs it)" unless File.executable?(RUBY4)
    result, out = check("examples/fixes/three_constants.rb", "--ruby", RUBY4)
    assert_equal 1, result.code, result.out + result.err
    assert_match(/what:  constant Object::BODIES \(an Array, not frozen\)/, out)
    assert_match(/what:  constant ThreeConstants::MASSES/, out)
    assert_match(/\(checked: /, out)
  end

  # Built on first use, in steps: threads released together find it
  # half-built. The threads problem is listed beside the ractor one.
  def test_a_thread_safety_bug_listed_beside_the_ractor_problem
    result, out = check("test/fixtures/try/lazy_table.rb")
    assert_equal 1, result.code, result.out + result.err
    assert_match(/^ractors: cannot run this work: not Ractor-safe$/, out)
    assert_match(%r{what:  @table of LazyTable\n  where: test/fixtures/try/lazy_table\.rb:11   @table = \{\}}, out)
    assert_match(/^threads: cannot run this work safely: it fails in threads side by side$/, out)
    assert_match(/what:  work\(item \d+\) raised KeyError: key not found: \d+ with 4 threads running it at once; one item at a time it does not/, out)
    assert_match(%r{where: test/fixtures/try/lazy_table\.rb:20   table\.fetch\(item % 10\) \+ item}, out)
    assert_match(/LazyTable\.work follows the contract(; |\n  )ractors and threads cannot run it as written/, out)
  end

  # Both bugs are met only past the 20th item, so only the sweep finds them:
  # a line for each model, the threads failures not hidden behind the more
  # numerous ractors ones.
  def test_the_sweep_lists_the_failures_of_every_model
    result = ractorbench("try", "test/fixtures/try/late_scanner.rb", "--workers", "1,2", "--reps", "2", "--items", "24",
      "--models", "threads,processes,ractors", "-o", File.join(@dir, "late.jsonl"), chdir: ROOT)
    assert_equal 0, result.code, "the failures are part of the answer: #{result.out}#{result.err}"
    out = result.out.gsub(/\n {6}(?! )/, " ")
    assert_match(/^INCOMPLETE: 6 of 14 runs failed/, out)
    assert_match(/^  ractors: 4 of 4 failed; W=\d rep \d: raised Ractor::IsolationError: .*LateScanner::SCANNER/, out)
    assert_match(/^  threads: 2 of 4 failed; W=2 rep \d: raised RuntimeError: Scanner#scan entered twice at once/, out)
    assert_match(/^  - 6 of 14 runs failed \(ractors 4, threads 2; see above\) and are left out/, out)
  end

  # One run hangs and is killed by --timeout; the verdict stands on the rest.
  def test_a_run_killed_by_its_timeout_leaves_the_recommendation
    FileUtils.cp(fixture("try/hang_once.rb"), @dir)
    result = ractorbench("try", File.join(@dir, "hang_once.rb"), "--workers", "1,2", "--reps", "2", "--items", "8",
      "--models", "threads,processes", "--timeout", "5", "-o", File.join(@dir, "hang.jsonl"), chdir: ROOT)
    assert_equal 0, result.code, "a run that timed out is part of the answer: #{result.out}#{result.err}"
    assert File.exist?(File.join(@dir, "hung-once")), "one run reached the hang"
    out = result.out.gsub(/\n {4,6}(?! )/, " ")
    assert_match(/^INCOMPLETE: 1 of 10 runs failed/, out)
    assert_match(/^  \w+: 1 of \d failed; W=\d rep \d: timed out after 5/, out)
    assert_match(/^Recommendation: /, out)
    assert_match(/^  - 1 of 10 runs failed \(\w+ 1; see above\) and is left out: this rests on the 9 that succeeded/, out)
  end

  # A diagnosis is laid out for the screen it is printed on, never wider.
  def test_a_diagnosis_fits_an_80_column_screen
    result = ractorbench("try", "--example", "unsafe_cache", "--check", chdir: ROOT, env: {"COLUMNS" => "80"})
    assert_equal 1, result.code, result.err
    assert_match(/^  fix:   work changes it/, result.out)
    assert_empty result.out.lines.map(&:chomp).select { |l| l.size > 80 }, result.out
  end
end
