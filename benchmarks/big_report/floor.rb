# frozen_string_literal: true

# The floor `report` is measured against: every run line of FILE through
# JSON.parse and nothing kept, in READERS processes (each parsing its
# stretch of the file, cut at line starts as the store cuts it), the header
# by the first. Run as its own process, so its time and memory are its own.
require "json"

path, readers = ARGV[0], Integer(ARGV.fetch(1, "1"))
size = File.size(path)
cuts = File.open(path, "rb") do |file|
  (1...readers).map do |k|
    file.seek(size * k / readers)
    file.gets
    file.pos
  end
end
stretches = ([0] + cuts + [size]).each_cons(2).to_a
parse = lambda do |(from, to)|
  File.open(path, "rb") do |file|
    file.seek(from)
    JSON.parse(file.gets) while file.pos < to
  end
end
pids = stretches.drop(1).map { |stretch| fork { parse.call(stretch) } }
parse.call(stretches.first)
pids.each { |pid| Process.wait(pid) }
