# frozen_string_literal: true

require_relative "test_helper"
require_relative "../tasks/readme_examples"

# Every example of the README is what its command prints today, byte for
# byte: `bundle exec rake readme` rewrites them after a change of output.
class ReadmeExamplesTest < Minitest::Test
  def test_the_readme_shows_real_output
    examples = ReadmeExamples.examples
    assert_operator examples.size, :>=, 5, "the README's examples carry their commands"
    stale = examples.reject { |e| ReadmeExamples.expected(e) == e.body }.map(&:command)
    assert_empty stale, "README examples out of date: run `bundle exec rake readme` and review the diff"
  end

  # Files a README example reads ship in the gem (examples/), so they work after `gem install` too.
  def test_the_examples_read_files_that_ship
    ReadmeExamples.examples.each do |e|
      Shellwords.split(e.command).grep(/\.(jsonl|rb)\z/).each do |file|
        assert File.exist?(File.join(ROOT, file)), "#{e.command}: #{file} exists"
        assert file.start_with?("examples/"), "#{e.command}: #{file} is under examples/, which the gem ships"
      end
    end
  end
end
