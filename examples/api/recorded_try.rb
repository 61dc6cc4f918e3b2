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
# params names the file as the sweep's runs saw it (its absolute path): left out.
puts "result.speedups.max_by(&:speedup).to_h.except(:params) # =>"
puts "  #{best.to_h.except(:params).inspect}"
