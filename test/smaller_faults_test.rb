# frozen_string_literal: true

require_relative "test_helper"
require_relative "hostile_helper"

# The smaller faults of a hostile round, each named for what it is: a
# RUBYOPT file that ends Ruby, a run that kills the watchdog then its
# collector, an append-only results file, a full standard output, API
# keywords of the wrong type.
class SmallerFaultsTest < Minitest::Test
  include CLIHelper
  include TempDir
  include HostileHelper

  # Not the driver: what Ruby loads for RUBYOPT ends or breaks every child.
  CHILD_ONLY = 'unless $0.end_with?("exe/ractorbench")'

  def test_a_rubyopt_file_that_ends_ruby_is_named_not_the_ruby
    exits = File.join(@dir, "exits.rb")
    File.write(exits, "exit 3 #{CHILD_ONLY}\n")
    raises = File.join(@dir, "raises.rb")
    File.write(raises, "raise 'boom' #{CHILD_ONLY}\n")
    lib = File.join(@dir, "lib")
    FileUtils.mkdir_p(lib)
    File.write(File.join(lib, "quits.rb"), "exit!(4) #{CHILD_ONLY}\n")
    {
      {"RUBYOPT" => "-r#{exits}"} => /ends before running anything when started with RUBYOPT=-r\S*exits\.rb \(exit status 3\), and answers without RUBYOPT: /,
      {"RUBYOPT" => "-r#{raises}"} => /RUBYOPT=-r\S*raises\.rb \(exit status 1: .*boom/,
      # held out: the file found through RUBYLIB, and try's probe
      {"RUBYOPT" => "-rquits", "RUBYLIB" => lib} => /started with RUBYOPT=-rquits \(exit status 4\), and answers without RUBYOPT: what RUBYOPT loads/
    }.each do |env, message|
      out = File.join(@dir, "r.jsonl")
      result = ractorbench("run", "-w", "noop", "-m", "serial", "--reps", "1", "-o", out, env: unbundled.merge(env))
      assert_usage_error result, message
      refute_match(/is not a Ruby/, result.err)
      refute File.exist?(out)
    end
    result = ractorbench("try", "examples/json_parse.rb", "-o", File.join(@dir, "t.jsonl"), chdir: ROOT,
      env: unbundled.merge("RUBYOPT" => "-r#{exits}"))
    assert_usage_error result, /RUBYOPT=-r\S*exits\.rb \(exit status 3\)/
  end

  # A user's shell, not this test's `bundle exec`: Bundler (loaded by the
  # driver on some Rubies) would put back the RUBYOPT it saw first.
  def unbundled = ENV.keys.grep(/\ABUNDLE/).to_h { |k| [k, nil] }

  # The watchdog kills the run in flight when its collector dies; a run
  # that kills the watchdog first still dies with its collector: the kernel
  # kills it (the parent-death signal the child asked for). The run leaves
  # its cgroup first, so no other collection on this machine can be what
  # ended it (one sweeps the cgroups of dead collectors).
  def test_a_run_that_kills_the_watchdog_then_its_collector_leaves_nothing
    result = hostile("h-kill-guards")
    assert result.status.signaled?, "the collector was killed: #{result.err}"
    assert dead?(noted_pid("watchdog.pid")), "the run killed the watchdog"
    assert (gone = dead?(noted_pid("guards.pid"), seconds: 30)), "the run outlived its collector and watchdog"
    assert_equal Signal.list.fetch("KILL"), noted_pid("parent_death_signal"), "the run asked the kernel for SIGKILL when its collector ends"
  ensure
    Process.kill(:KILL, noted_pid("guards.pid")) if gone == false
  end

  # chattr +a: the marks cannot be taken out at the end. Said, exit 1, and
  # --resume takes them out once the file may be replaced.
  def test_an_append_only_results_file_is_not_called_finished
    FileUtils.touch(probe = File.join(@dir, "probe"))
    skip "chattr +a needs root and a file system that has it" unless system("chattr", "+a", probe, err: File::NULL)
    system("chattr", "-a", probe)
    result = hostile("h-append-only,noop", "--reps", "2")
    assert_equal 1, result.code, result.err
    assert_match(/every run is recorded in \S*r\.jsonl, but the marks written as the collection went could not be taken out of it \(Operation not permitted: the file may be append-only or immutable, `lsattr \S+` shows it\)/, result.err)
    assert_match(/`ractorbench run --resume \S+` finishes it/, result.err)
    refute_empty File.readlines(@out).grep(/"type":"started"/), "the marks stayed"
    system("chattr", "-a", @out, exception: true)
    resumed = resume
    assert_includes [0, 1], resumed.code, resumed.err
    assert_empty File.readlines(@out).grep(/"type":"(started|interrupted)"/), "--resume took the marks out"
    assert_plan_exact(@out)
  ensure
    system("chattr", "-a", @out, err: File::NULL) if @out
  end

  # Standard output that takes nothing: a line and exit 2, never 0.
  def test_a_full_standard_output_is_a_line_and_a_failure
    fib = File.join(ROOT, "examples", "results", "fib.jsonl")
    nap = File.join(ROOT, "examples", "results", "nap_before.jsonl")
    [["report", fib], ["report", fib, "--format", "json"], ["list"],
      # held out
      ["compare", nap, File.join(ROOT, "examples", "results", "nap_after.jsonl")], ["--version"]].each do |args|
      reader, writer = IO.pipe
      pid = Process.spawn(RbConfig.ruby, EXE, *args, out: "/dev/full", err: writer)
      writer.close
      err = reader.read
      _, status = Process.wait2(pid)
      assert_equal 2, status.exitstatus, "#{args.join(" ")}: #{err}"
      assert_equal "ractorbench: cannot write to standard output: No space left on device\n", err, args.join(" ")
    end
  end

  # Ractorbench.run / .try / .read: a keyword of the wrong type is a
  # UsageError naming the keyword, and nothing runs.
  def test_api_keywords_of_the_wrong_type_name_the_keyword
    out = File.join(@dir, "api.jsonl")
    example = File.join(ROOT, "examples", "json_parse.rb")
    calls = {
      "Ractorbench.run(workloads: ['noop'], params: 5, output: OUT)" => /\Aparams: must be a Hash/,
      "Ractorbench.run(workloads: ['noop'], rubies: 5, output: OUT)" => /\Arubies: must be a Hash/,
      "Ractorbench.run(workloads: ['noop'], load: 5, output: OUT)" => /\Aload: must be a path/,
      "Ractorbench.run(workloads: ['noop'], output: 5)" => /\Aoutput: must be a path/,
      "Ractorbench.run(suite: 5, output: OUT)" => /\Asuite: must be a String/,
      "Ractorbench.run(suite: 'nope', output: OUT)" => /\Asuite: unknown suite "nope"/,
      "Ractorbench.try(EXAMPLE, fibers: 'yes', output: OUT)" => /\Afibers: must be true or false, got "yes"/,
      "Ractorbench.try(EXAMPLE, check: 1, output: OUT)" => /\Acheck: must be true or false/,
      "Ractorbench.try(EXAMPLE, ruby: 5, output: OUT)" => /\Aruby: must be a String/,
      "Ractorbench.try(EXAMPLE, ruby: 'nope', output: OUT)" => /\Aruby: nope: no such Ruby/,
      "Ractorbench.try(EXAMPLE, models: 5, output: OUT)" => /\Amodels: needs a list of names/,
      "Ractorbench.read(5)" => /\Apath: must be a path \(a String or Pathname\), got 5/,
      # held out
      "Ractorbench.read(nil)" => /\Apath: must be a path/,
      "Ractorbench.try(EXAMPLE, output: [])" => /\Aoutput: must be a path/,
      "Ractorbench.run(workloads: [:noop, 3], output: OUT)" => /\Aworkloads: needs a list of names/
    }
    calls.each do |call, message|
      script = "OUT = #{out.inspect}; EXAMPLE = #{example.inspect}\n" \
        "begin; #{call}; puts 'returned'; rescue Ractorbench::UsageError => e; puts e.message; end"
      result = ruby_script(script, "ractorbench")
      assert_equal 0, result.code, "#{call}: #{result.err}"
      assert_match message, result.out, call
      refute_match(/--(ruby|param|suite|models|output|load|fibers|check|reps) /, result.out, "#{call}: a CLI option named")
      refute File.exist?(out), "#{call} ran"
    end
  end
end
