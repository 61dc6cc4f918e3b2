# frozen_string_literal: true

require_relative "readme_examples"

desc "Rewrite the README's example blocks with the real output of their commands"
task :readme do
  changed = ReadmeExamples.update!
  puts "README.md: #{changed} of #{ReadmeExamples.examples.size} examples rewritten"
end
