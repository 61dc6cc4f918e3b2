# frozen_string_literal: true

require_relative "test_helper"

# Every file of lib/ must carry its own requires: loaded alone, in a process
# that has loaded nothing else of ours, it loads, and every constant of ours
# that it names is then defined. A require missing from one file otherwise
# goes unnoticed for as long as some other file happens to load it first.
class LayoutTest < Minitest::Test
  LIB = File.join(ROOT, "lib")
  FILES = Dir[File.join(LIB, "ractorbench", "**", "*.rb")].sort.map { |f| f.delete_prefix("#{LIB}/").delete_suffix(".rb") }
  # The stages' modules, and the constants paths.rb gives every stage.
  STAGES = (%w[Plan Rubies Measure Store Analysis Stats Reports Advisor Commands CLI UsageError] +
    File.read(File.join(LIB, "ractorbench", "base", "paths.rb")).scan(/^\s*([A-Z][A-Z_]+) =/).flatten).freeze

  # Run in a fresh Ruby: for each file, fork, require it alone, and print
  # the constants of ours its source names that are still undefined.
  CHECKER = <<~'RUBY'
    require "json"
    lib, stages, files = JSON.parse(ARGV[0]).values_at("lib", "stages", "files")
    $LOAD_PATH.unshift(lib)
    # A constant, not a word in a message: followed by code punctuation.
    token = /(?<![\w:@])(?:#{stages.join("|")})(?:::[A-Z]\w*)*(?=[.,()\]]|::|\s*$)/
    files.each do |file|
      r, w = IO.pipe
      pid = fork do
        r.close
        problems = []
        begin
          require file
          code = File.read(File.join(lib, "#{file}.rb")).lines.reject { |l| l.strip.start_with?("#") }.join
          code.scan(token).uniq.each do |name|
            problems << "names #{name}, not defined when loaded alone" unless Ractorbench.const_defined?(name)
          rescue NameError
            problems << "names #{name}, not defined when loaded alone"
          end
        rescue Exception => e # rubocop:disable Lint/RescueException -- any load failure is the finding
          problems << "does not load alone: #{e.class}: #{e.message.lines.first&.strip}"
        end
        w.write(JSON.generate(problems))
        w.close
        exit!(0)
      end
      w.close
      puts JSON.generate(file => JSON.parse(r.read))
      Process.wait(pid)
    end
  RUBY

  def test_every_lib_file_loads_alone_with_the_constants_it_names
    refute_empty FILES
    arg = JSON.generate("lib" => LIB, "stages" => STAGES, "files" => FILES)
    out, err, status = Open3.capture3(RbConfig.ruby, "-e", CHECKER, arg)
    assert status.success?, err
    found = out.lines.map { |l| JSON.parse(l) }.reduce({}, :merge)
    assert_equal FILES.sort, found.keys.sort, "every file was checked"
    problems = found.reject { |_, list| list.empty? }.map { |file, list| "#{file}: #{list.join("; ")}" }
    assert_empty problems, problems.join("\n")
  end
end
