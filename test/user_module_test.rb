# frozen_string_literal: true

require "test_helper"

# The user's file cannot fool the tool: its module is named by where it was
# defined, whatever `name` says; the check and the runs use Ruby's and
# ractorbench's own code as it was before the file loaded; a library on
# RUBYLIB cannot stand in for one ractorbench loads; and a file that
# redefines ractorbench's own code is refused.
class UserModuleTest < Minitest::Test
  include CLIHelper
  include TempDir

  WORK = "  def self.work(item) = (1..2_000).sum { |i| i * item % 7 }\n"

  def write(name, text)
    File.join(@dir, name).tap { |path| File.write(path, text) }
  end

  def try(path, *args, env: {})
    @results = File.join(@dir, "#{File.basename(path, ".rb")}.jsonl")
    ractorbench("try", path, "-m", "threads", "--workers", "1,2", "--reps", "1", "--items", "8", "-o", @results, *args, env: env)
  end

  def assert_swept(result, module_name)
    assert_includes [0, 1], result.code, result.err
    header = results_lines(@results).first
    assert_equal module_name, header.dig("try", "module")
    runs = runs_in(@results)
    assert_equal 3, runs.size
    assert_equal ["ok"], runs.map { |r| r["status"] }.uniq, runs.map { |r| r["reason"] }.compact.join("; ")
    refute_match(/--module/, result.out + result.err, "no option the user never gave")
  end

  # The issue's `self.name`, and held out: to_s and inspect too, and
  # Module#name for every module.
  def test_a_module_is_named_where_it_was_defined
    {"named.rb" => ["Honest", "module Honest\n  def self.name = \"Liar\"\n#{WORK}end\n"],
     "renamed.rb" => ["Real", "class Module\n  def name = \"Nobody\"\nend\n\nmodule Real\n  def self.to_s = \"Fake\"\n" \
       "  def self.inspect = \"Fake\"\n#{WORK}end\n"]}.each do |file, (name, text)|
      assert_swept(try(write(file, text)), name)
    end
  end

  def test_a_file_that_redefines_json_generate_does_not_change_the_check
    path = write("jsongen.rb", "require \"json\"\n\nmodule JSON\n  def self.generate(*) = \"garbage\"\nend\n\n" \
      "module Plain\n#{WORK}end\n")
    result = ractorbench("try", path, "--check")
    assert_equal 0, result.code, result.out + result.err
    assert_match(/Plain\.work follows the contract; every model can run it/, result.out)
  end

  # Held out: JSON's parser and every object's to_json as well.
  def test_a_file_that_redefines_json_parse_and_to_json
    path = write("jsonall.rb", "require \"json\"\n\nmodule JSON\n  def self.parse(*) = {}\nend\n\nclass Object\n" \
      "  def to_json(*) = \"0\"\nend\n\nmodule Plain\n#{WORK}end\n")
    assert_swept(try(path), "Plain")
  end

  def test_a_json_rb_earlier_on_rubylib_cannot_garble_the_results
    shadow = File.join(@dir, "shadow")
    FileUtils.mkdir_p(shadow)
    File.write(File.join(shadow, "json.rb"), "module JSON\n  def self.generate(*) = \"garbage\"\n  def self.dump(*) = \"garbage\"\n" \
      "  def self.parse(*) = {}\nend\n")
    path = write("plain.rb", "module Plain\n#{WORK}end\n")
    assert_swept(try(path, env: {"RUBYLIB" => shadow}), "Plain")
    out = File.join(@dir, "run.jsonl")
    ran = ractorbench("run", "-w", "prime", "-m", "serial,threads", "--workers", "1", "--messages", "20", "--reps", "1", "-o", out,
      env: {"RUBYLIB" => shadow})
    assert_includes [0, 1], ran.code, ran.err
    assert_equal 2, runs_in(out).count { |r| r["status"] == "ok" }
  end

  # Held out: a digest library on RUBYLIB, which the child's workloads use
  # to compare models' results.
  def test_a_digest_library_on_rubylib_cannot_stand_in_for_the_childs
    shadow = File.join(@dir, "shadow")
    FileUtils.mkdir_p(File.join(shadow, "digest"))
    File.write(File.join(shadow, "digest", "sha1.rb"), "module Digest\n  class SHA1\n    def self.base64digest(*) = \"same\"\n" \
      "  end\nend\n")
    out = File.join(@dir, "prime.jsonl")
    ran = ractorbench("run", "-w", "prime", "-m", "serial,threads", "--workers", "2", "--messages", "20", "--reps", "1", "-o", out,
      env: {"RUBYLIB" => shadow})
    assert_equal 0, ran.code, ran.err
    refute_includes runs_in(out).map { |r| r["digest"] }, "same"
  end

  def test_a_file_that_replaces_the_adapter_is_refused
    path = write("adapter.rb", "module Ractorbench\n  module Harness\n    module Try\n      module Adapter\n" \
      "        def self.work(job) = [job[0], 0]\n      end\n    end\n  end\nend\n\nmodule Sneaky\n#{WORK}end\n")
    [[], ["--module", "Sneaky"]].each do |args|
      result = try(path, *args)
      assert_usage_error(result, /adapter\.rb:5: it redefines ractorbench's own Ractorbench::Harness::Try::Adapter\.work; /)
      refute File.exist?(@results), "nothing measured"
    end
  end

  # Held out: the digest every model's results are compared by, and a
  # method added to the harness itself.
  def test_a_file_that_changes_any_of_ractorbenchs_own_code_is_refused
    {
      "Ractorbench::Harness::Try::ResultDigest.call" =>
        "module Ractorbench\n  module Harness\n    module Try\n      module ResultDigest\n        def self.call(*) = \"same\"\n" \
        "      end\n    end\n  end\nend\n",
      "Ractorbench::Harness.helper" => "module Ractorbench\n  module Harness\n    def self.helper = 1\n  end\nend\n"
    }.each do |method, code|
      path = write("own.rb", "#{code}\nmodule Mine\n#{WORK}end\n")
      result = try(path)
      assert_usage_error(result, /own\.rb:\d+: it redefines ractorbench's own #{Regexp.escape(method)}/)
    end
  end
end
