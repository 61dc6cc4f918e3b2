# frozen_string_literal: true

# What Ractorbench.try(SlowService) returned for the sweep recorded in
# examples/results/try_slow_service.jsonl: Ractorbench.try reads its figures
# back from the results file it wrote, and Ractorbench.read reads them the
# same way from a file written before (the README shows this output).
#
#   ruby -Ilib examples/api/recorded_try.rb
require "ractorbench"

result = Ractorbench.read(File.expand_path("../results/try_slow_service.jsonl", __dir__))

puts "result.recommendation # =>"
result.recommendation.each { |line| puts "  #{line.inspect}" }

best = result.speedups.max_by(&:speedup)
puts "result.speedups.size # => #{result.speedups.size}"
puts "best = result.speedups.max_by(&:speedup)"
# Each field as `key: value` (a Hash's inspect differs between Ruby 3.1 and 3.4);
# params, the file's absolute path as the runs saw it, left out.
best.to_h.except(:params).each { |key, value| puts "best.#{key} # => #{value.inspect}" }
