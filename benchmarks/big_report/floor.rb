# frozen_string_literal: true

# The floor `report` is measured against: FILE read plainly in one process,
# each line parsed and, per configuration, the fields the store keeps (those
# the field table says the analysis reads) kept as parsed, one list a field;
# the digest checked as it comes (one a configuration), failed and disturbed
# runs kept by their line's offset (to be read back when shown).
# With "figures" after FILE, only the numbers of those fields are kept, and
# the worker spread as one number. Run as its own process, so its time and
# memory are its own.
require "json"
require_relative "../../harness/ractorbench/harness/fields"

figures = ARGV[1] == "figures"
read = Ractorbench::Harness::Fields.kept.to_h { |name| [name, true] }
Kept = Struct.new(:size, :fields, :digests, :spreads, :shown)
configurations = Hash.new { |h, names| h[names] = Kept.new(0, Hash.new { |f, name| f[name] = [] }, {}, [], []) }
File.open(ARGV.fetch(0), "rb") do |file|
  JSON.parse(file.gets).fetch("tool")
  offset = file.pos
  file.each_line do |line|
    run = JSON.parse(line)
    if run["type"] == "run"
      kept = configurations[run.values_at("workload", "model", "workers", "messages", "params", "ruby")]
      run.each do |name, value|
        kept.fields[name][kept.size] = value if read.key?(name) && (!figures || value.is_a?(Numeric))
      end
      kept.digests[run["digest"]] = true if run["status"] == "ok"
      jobs = run["worker_jobs"]
      kept.spreads[kept.size] = jobs.max.fdiv(jobs.sum) if figures && jobs.is_a?(Array) && !jobs.empty? && jobs.sum.positive?
      kept.shown << offset if run["status"] != "ok" || run["disturbed"]
      kept.size += 1
    end
    offset += line.bytesize
  end
end
wrong = configurations.count { |_, kept| kept.digests.size > 1 }
puts "#{configurations.size} configurations, #{configurations.sum { |_, kept| kept.size }} runs, #{wrong} with digests that disagree"
