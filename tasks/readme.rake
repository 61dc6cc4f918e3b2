# frozen_string_literal: true

require_relative "readme_examples"

desc "Rewrite the example blocks of README.md and docs/*.md with the real output of their commands"
task :readme do
  changed = ReadmeExamples.update!
  puts "README.md and docs/*.md: #{changed} of #{ReadmeExamples.examples.size} examples rewritten"
end

namespace :readme do
  desc "Record again the results files the README's examples read (a quiet machine: they are timings); NAME=one"
  task :record do
    recordings = ReadmeExamples::RECORDINGS
    (ENV["NAME"] ? [ENV["NAME"]] : recordings.keys).each do |name|
      argv = recordings.fetch(name) { abort "no recording #{name}: #{recordings.keys.join(", ")}" }
      path = File.join("examples", "results", "#{name}.jsonl")
      sh RbConfig.ruby, "exe/ractorbench", *argv, "--wait-quiet", "-o", path, "--force", chdir: ReadmeExamples::ROOT do |ok, status|
        # Exit 1 is an answer (a model ruled out, a failed run the file records), not a failed recording.
        abort "recording #{name} failed (#{status.exitstatus})" unless ok || status.exitstatus == 1
      end
    end
  end
end
