# frozen_string_literal: true

require "test_helper"
require "tmpdir"

# Work that a model cannot run: the check child runs it in a real ractor
# (and through Marshal) and `try --check` names the object, the user's
# file and line, why, and the fix. Exit 1: the file is fine, a model is not.
class TryDiagnosisTest < Minitest::Test
  include CLIHelper

  def check(name)
    result = ractorbench("try", "test/fixtures/try/#{name}", "--check", chdir: ROOT)
    assert_equal 1, result.code, result.out + result.err
    assert_equal "", result.err
    refute_match(/\.rb:\d+:in /, result.out, "no stack trace")
    unwrapped(result.out)
  end

  def test_global_variable
    out = check("global_state.rb")
    assert_match(/what:  global variable \$factor/, out)
    assert_match(%r{where: test/fixtures/try/global_state\.rb:8   item \* \$factor}, out)
    assert_match(/only the main ractor may read or write global variables/, out)
    assert_match(/Ractor\.make_shareable\(\$factor\)/, out)
  end

  def test_class_instance_variable
    out = check("class_ivar.rb")
    assert_match(/what:  @seen of ClassIvar \(a Hash\)/, out)
    assert_match(%r{where: test/fixtures/try/class_ivar\.rb:7   @seen\[item\] \|\|= item \* 2}, out)
    assert_match(/keep it per ractor \(`Ractor\.current\[:seen\] \|\|= \{\}`\)/, out)
  end

  def test_method_defined_with_a_capturing_block
    out = check("define_method.rb")
    assert_match(/what:  a method defined with define_method or define_singleton_method and a block/, out)
    assert_match(%r{where: test/fixtures/try/define_method\.rb:8}, out)
    assert_match(/define it with `def` instead/, out)
  end

  # A lambda defined in a module body captures nothing but the module, so
  # freezing it is enough: the check did so, and checked the fix.
  def test_proc_in_a_constant
    out = check("proc_constant.rb")
    assert_match(/what:  constant ProcConstant::DOUBLE \(a Proc, not frozen\), defined at test\/fixtures\/try\/proc_constant\.rb:4/, out)
    assert_match(%r{where: test/fixtures/try/proc_constant\.rb:7   DOUBLE\.call\(item\)}, out)
    assert_match(/fix: +add these lines at the end of test\/fixtures\/try\/proc_constant\.rb.*\(checked: /, out)
    assert_match(/^ {11}Ractor\.make_shareable\(ProcConstant::DOUBLE\)$/, out)
  end

  # A Proc in the result: neither a ractor nor Marshal can carry it.
  def test_result_that_cannot_travel
    out = check("returns_proc.rb")
    assert_match(/^ractors: cannot run this work: its results cannot be copied between ractors$/, out)
    assert_match(/^processes: cannot run this work: its results cannot be sent between processes$/, out)
    assert_match(/what:  result\["later"\] \(of item 0\) is a Proc \(Marshal: no _dump_data is defined for class Proc\)/, out)
    assert_match(%r{where: test/fixtures/try/returns_proc\.rb:4}, out)
  end

  # Items Marshal refuses stop no forked worker: the workers are forked
  # holding them, as Parallel's are, and only the results travel. Both
  # fork shapes run every item, both workers busy, and agree with serial.
  def test_items_marshal_refuses_still_run_in_forked_workers
    Dir.mktmpdir do |dir|
      out = File.join(dir, "procs.jsonl")
      result = ractorbench("try", "test/fixtures/try/items_hold_a_proc.rb", "-m", "serial,processes,processes-split",
        "--workers", "2", "--reps", "1", "--items", "40", "-o", out, chdir: ROOT)
      assert_equal 0, result.code, result.out + result.err
      refute_match(/cannot be sent between processes/, result.out)
      runs = runs_in(out).select { |r| r["model"].start_with?("processes") }
      assert_equal %w[processes processes-split], runs.map { |r| r["model"] }.sort
      runs.each do |run|
        assert_equal "ok", run["status"], run.inspect
        assert_equal 40, run["worker_jobs"].sum, "#{run["model"]}: every item ran"
        assert_equal 2, run["worker_jobs"].count(&:positive?), "#{run["model"]}: both workers had items"
      end
      assert_match(/^Every model returned the same results as serial \(40 items/, result.out)
      # One worker count fits no model: the chart's legend says so once, naming both.
      assert_equal 1, result.out.scan("no Amdahl fit").size, result.out
      assert_match(/^  P processes, R processes-split: no Amdahl fit/, result.out)
    end
  end

  # The check tries eight items in a ractor; this work breaks on the 21st.
  # The sweep's ractors runs fail, and the failure is diagnosed the same way.
  def test_unsafe_only_on_later_items_is_diagnosed_from_the_sweep
    Dir.mktmpdir do |dir|
      result = ractorbench("try", "test/fixtures/try/late_global.rb", "--workers", "1,2", "--reps", "1", "--items", "24",
        "-o", File.join(dir, "late.jsonl"), chdir: ROOT)
      assert_equal 0, result.code, "failed runs are part of the answer: #{result.out}#{result.err}"
      out = unwrapped(result.out)
      assert_match(/what:  global variable \$offset/, out)
      assert_match(%r{where: test/fixtures/try/late_global\.rb:10   \(item > 20\)}, out)
      # Both ractor shapes fail at W=1 and W=2; every other run succeeds.
      assert_match(/INCOMPLETE: 4 of 11 runs failed/, out)
      %w[ractors-batched ractors-split].each do |model|
        assert_match(/^  #{model}: 2 of 2 failed; W=\d rep 1: raised Ractor::IsolationError: .*late_global\.rb:10, item 2\d\)/,
          result.out.gsub(/\n {6}(?! )/, " "))
      end
      assert_match(/^Recommendation: /, out, "the runs that succeeded still give a recommendation (or say why not)")
      assert_match(/^  - 4 of 11 runs failed \(ractors-batched 2, ractors-split 2; see above\) and are left out/,
        result.out.gsub(/\n {4}(?! )/, " "), "with the failures counted")
    end
  end

  # Ruby's message does not say which C method; its first frame does: on
  # 3.4 and later with its owner ('ObjectSpace.memsize_of'), on 3.1 bare
  # (`memsize_of'), the owner then read from the calling line. Either way
  # the diagnosis names it.
  def test_a_c_method_not_marked_ractor_safe_is_named
    ruby4 = "/opt/rubies/ruby-4.0.0/bin/ruby"
    [RbConfig.ruby, ruby4].each do |ruby|
      next skip("#{ruby4} is not installed") unless File.executable?(ruby)

      result = ractorbench("try", "test/fixtures/try/c_method.rb", "--check", "--ruby", ruby, chdir: ROOT)
      assert_equal 1, result.code, result.out + result.err
      out = unwrapped(result.out)
      assert_includes out, "what:  the C method ObjectSpace.memsize_of, not marked Ractor-safe\n", ruby
      assert_match(%r{where: test/fixtures/try/c_method\.rb:13 }, out)
      assert_includes out, "fix:   ObjectSpace.memsize_of cannot run inside a ractor on this Ruby: use processes", ruby
    end
  end

  # Met only by the sweep (from the 21st item on): the failed run's reason
  # carries the method, and the diagnosis built from it names it too.
  def test_a_c_method_met_only_in_the_sweep_is_named
    Dir.mktmpdir do |dir|
      result = ractorbench("try", "test/fixtures/try/c_method.rb", "--models", "ractors", "--workers", "1,2", "--reps", "1",
        "--items", "24", "-o", File.join(dir, "late.jsonl"), chdir: ROOT, env: {"LATE_FROM" => "20"})
      assert_equal 1, result.code, result.out + result.err
      out = unwrapped(result.out)
      assert_includes out, "what:  the C method ObjectSpace.memsize_of, not marked Ractor-safe\n"
      assert_match(/^  ractors: 2 of 2 failed; W=\d rep 1: raised Ractor::UnsafeError: ractor unsafe method called from not main ractor \(the C method ObjectSpace\.memsize_of\) \(.*c_method\.rb:13, item \d+\)/,
        result.out.gsub(/\n {6}(?! )/, " "))
      reasons = runs_in(File.join(dir, "late.jsonl")).select { |r| r["model"] == "ractors" }.map { |r| r["reason"] }
      assert_equal 2, reasons.grep(/\(the C method ObjectSpace\.memsize_of\)/).size, reasons.inspect
    end
  end

  def test_safe_work_passes_the_check
    result = ractorbench("try", "examples/json_parse.rb", "--check", chdir: ROOT)
    assert_equal 0, result.code, result.err
    assert_match(/JsonParse\.work follows the contract; every model can run it/, result.out)
  end
end
