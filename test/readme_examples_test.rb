# frozen_string_literal: true

require_relative "test_helper"
require "fileutils"
require "tmpdir"
require_relative "../tasks/readme_examples"

# Every example of the README and of docs/*.md is what its command prints
# today, byte for byte: `bundle exec rake readme` rewrites them after a change
# of output. Every link between them leads somewhere.
class ReadmeExamplesTest < Minitest::Test
  def test_the_readme_shows_real_output
    examples = ReadmeExamples.examples
    assert_operator examples.count { |e| e.file == ReadmeExamples::README }, :>=, 3, "the README's examples carry their commands"
    stale = examples.reject { |e| ReadmeExamples.expected(e) == e.body }.map(&:to_s)
    assert_empty stale, "examples out of date: run `bundle exec rake readme` and review the diff"
  end

  # The README's Ruby example, byte for byte, run as it says: saved as
  # try_it.rb beside examples/ and run with `bundle exec ruby` (this test's
  # bundle). It prints the recommendation, the best speedup with its n,
  # and a results file that exists.
  def test_the_from_ruby_example_runs_as_written
    code = File.read(ReadmeExamples::README)[/^### From Ruby\n.*?^```ruby\n(.*?)^```\n/m, 1]
    refute_nil code, "the README's From Ruby section has a Ruby block"
    assert_includes File.read(ReadmeExamples::README), "run with `bundle exec ruby try_it.rb`"
    Dir.mktmpdir do |dir|
      FileUtils.mkdir_p(File.join(dir, "examples"))
      FileUtils.cp(File.join(ROOT, "examples", "slow_service.rb"), File.join(dir, "examples"))
      File.write(File.join(dir, "try_it.rb"), code)
      out, err, status = Open3.capture3(RbConfig.ruby, "try_it.rb", chdir: dir)
      assert status.success?, err
      lines = out.lines.map(&:chomp)
      assert_match(/\ARecommendation: /, lines.first)
      assert(lines.any? { |l| l.match?(/\A\d+\.\d\d× \(n=3: no interval under 6 runs\)\z/) }, out)
      assert File.exist?(File.join(dir, lines.last)), "the results file: #{lines.last}"
    end
  end

  # Files an example reads ship in the gem (examples/), so they work after `gem install` too.
  def test_the_examples_read_files_that_ship
    ReadmeExamples.examples.each do |e|
      Shellwords.split(e.command).grep(/\.(jsonl|rb)\z/).each do |file|
        assert File.exist?(File.join(ROOT, file)), "#{e}: #{file} exists"
        assert file.start_with?("examples/"), "#{e}: #{file} is under examples/, which the gem ships"
      end
    end
  end

  # Relative links ([text](docs/x.md#anchor)) name a file that exists and,
  # after "#", a heading of it, as GitHub makes anchors of headings.
  def test_links_lead_somewhere
    broken = ReadmeExamples.files.flat_map do |file|
      prose(File.read(file)).scan(/\]\(([^)\s]+)\)/).flatten.reject { |l| l.match?(%r{\A[a-z]+://}) }.filter_map do |link|
        path, anchor = link.split("#", 2)
        target = path.empty? ? file : File.expand_path(path, File.dirname(file))
        where = "#{file.delete_prefix("#{ROOT}/")}: #{link}"
        next "#{where}: no such file" unless File.exist?(target)
        next if anchor.nil? || File.directory?(target)

        "#{where}: no such heading" unless anchors(File.read(target)).include?(anchor)
      end
    end
    assert_empty broken
  end

  def test_the_write_ups_are_named_and_linked
    readme = File.read(ReadmeExamples::README)
    ["How Fast are Ractors?", "Ractor Basic Benchmarking", "Exploring Ruby Ractors", "\"Ractor\" reconsidered",
      "Performance of Concurrently"].each do |title|
      assert_match(/\[#{Regexp.escape(title)}\]\(https:/, readme, "#{title} is linked")
    end
    # "seed" is the shuffle's (`--seed`), never a write-up ("seed 002", "the seeds", "the seed's pipe").
    ReadmeExamples.files.each do |file|
      refute_match(/\bseeds\b|\bseed \d{3}|\bseed (experiment|file|post)|\bthe seed's\b/i, prose(File.read(file)), "#{file}: 'seed' as a write-up")
    end
  end

  # The text outside code blocks.
  def prose(text) = text.gsub(/^```.*?^```\n/m, "")

  # GitHub's anchors: headings lowercased, punctuation but - and _ dropped, spaces as -.
  def anchors(text)
    prose(text).scan(/^#+ (.+)$/).flatten.map { |h| h.downcase.gsub(/[^\p{Word}\- ]/, "").tr(" ", "-") }
  end
end
