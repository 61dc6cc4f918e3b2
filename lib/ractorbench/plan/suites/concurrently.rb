# frozen_string_literal: true

require_relative "../concurrently_tables"
require_relative "../../../../harness/ractorbench/harness/subject"

# "Performance of Concurrently" (seed 001): what concurrency costs before any
# work is done, in executions per second, batches of 100. Concurrently does
# not run on Ruby >= 3.0, so its call styles run on Ruby's Fiber::Scheduler
# (the async gem); each row names the seed's call style and what ran for it.
# One suite with the seed's three tables, and one per table (what
# `rake "benchmark[NAME]"` runs). --time S sets each sample's length (default
# 1 s); --scale F multiplies it; --param gc=off disables GC as the seed did.
require_relative "../suite"

module Ractorbench
  module Plan
    module Plan::Suites
      module Concurrently
        TIME = 1.0

        module_function

        def entries(suite, tables)
          subjects = Harness::Subject.load_all
          tables.each do |table|
            table.subjects.each do |name|
              suite.entry workload: Plan::ConcurrentlyTables::WORKLOAD, models: [subjects.fetch(name).model], configs: [[1, 100]],
                params: {"subject" => name, "table" => table.name, "time" => TIME}, scale: method(:scale)
            end
          end
        end

        # A shorter run is shorter samples; batches stay at the seed's 100.
        def scale(entry, factor)
          Plan::Entry.new(**entry.to_h, params: entry.params.merge("time" => (entry.params["time"] * factor).round(4)))
        end
      end
    end
  end
end

Ractorbench::Plan::Suite.define("concurrently",
  "the cost of concurrency itself: call, wait and waiting-call ops/s, procs vs fibers (async) vs threads/ractors/fork (Performance of Concurrently)",
  reps: 1) do |s|
  Ractorbench::Plan::Suites::Concurrently.entries(s, Ractorbench::Plan::ConcurrentlyTables::ALL)
end

# The tour takes the first table only: its runs are short, but each is a
# child process that loads async, and the tour repeats every configuration.
Ractorbench::Plan::ConcurrentlyTables::ALL.each do |table|
  tour = (table.name == "call_methods") ? {tour: {scale: 0.02, reps: 1}} : {}
  Ractorbench::Plan::Suite.define("concurrently-#{table.name.tr("_", "-")}", "Performance of Concurrently's #{table.name} table: #{table.title.sub(/\A[^:]*: /, "")}",
    reps: 1, **tour) do |s|
    Ractorbench::Plan::Suites::Concurrently.entries(s, [table])
  end
end
