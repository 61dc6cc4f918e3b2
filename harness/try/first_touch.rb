# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "target"
require_relative "fresh_process"
require_relative "ractor_pass"
require_relative "threads_pass"
require_relative "fix_check"

module Ractorbench
  module Harness
    module Try
      # The parts of the check that must meet the user's work before anything
      # else has called it: work in a real ractor (with every problem
      # followed, and the fix they add up to checked on a scratch copy of the
      # file), then work in threads side by side. Each part runs in its own
      # fresh process that loads the file and builds the items as a sweep's
      # run does; where fork is missing they run here, in order, before the
      # serial check (the ractor part then stops at its first problem).
      class FirstTouch
        PARTS = %w[ractor threads fix].freeze

        # The pass in progress (in a part's process) and the part's process
        # (in the check's), for a check stopped by its time limit.
        attr_reader :pass, :child

        # stage: the check's `stage(name) { ... }`, which tells the driver
        # where the check is.
        # sources: {path => text} loaded in place of the user's files (the
        # check's own copy, past the problems found in earlier rounds);
        # ractor_only: the ractor part alone (such a later round).
        def initialize(file:, module_name:, sample:, budget:, stage:, sources: {}, ractor_only: false)
          @file = file
          @sources = sources.transform_keys { |path| File.expand_path(path) }
          @ractor_only = ractor_only
          @module = module_name
          @sample = sample
          @budget = budget
          @stage = stage
          @fresh = FreshProcess.available?
        end

        # {"ractor" => pass result or nil, "threads" => pass result, "fix" => ...},
        # or the record that ends the check (bad input found while loading).
        def call
          ractor = RactorCompat.available? ? part("ractor") { |t, items| RactorPass.new(t, items, @file, budget: @budget, remedies: @fresh) } : nil
          return ractor if ending?(ractor)
          return {"ractor" => ractor, "fix" => check_fix(ractor)}.compact if @ractor_only

          threads = part("threads") { |t, items| ThreadsPass.new(t, items, @file, budget: @budget) }
          return threads if ending?(threads)

          {"ractor" => ractor, "threads" => threads, "fix" => check_fix(ractor)}.compact
        end

        private

        def ending?(record) = record && record["status"] && record["status"] != "ok"

        # The user's file loaded (or the scratch copy in its place), its
        # items built, then the pass the block makes; in a fresh process
        # when there is fork.
        def part(name, source: nil, &make_pass)
          body = lambda do
            target = @stage.call("load") { loaded(source) }
            items = @stage.call("items") { Target.items(target, @sample) }
            @stage.call(name) do
              @pass = make_pass.call(target, items)
              @pass.call.merge("status" => "ok")
            end
          rescue ContractError => e
            {"status" => "bad_input", "problem" => e.message, "location" => e.location || @file}
          end
          return body.call unless @fresh

          settle(name, @stage.call(name) { FreshProcess.run(started: ->(pid) { @child = pid }, &body) })
        end

        # A part's process that crashed (a C extension inside a ractor, say)
        # is what the part found, not the end of the check.
        def settle(name, record)
          return record if %w[ok bad_input].include?(record["status"])

          crash = {"stage" => (name == "threads") ? "threads" : "work", "kind" => "crashed", "key" => "crashed",
                   "how" => record["how"] || record["problem"]}
          {"status" => "ok", "problems" => [crash], "remedies" => [], "checked" => 0}
        end

        def loaded(source)
          helpers = @sources.reject { |path, _| path == @file }
          return Target.load(@file, @module, source: source || @sources[@file], helpers: helpers) if @fresh

          @target ||= Target.load(@file, @module)
        end

        # The remedies the ractor part applied, as lines at the end of the
        # file, loaded from a scratch copy in a fresh process and checked
        # again. Without fork there are no remedies, so nothing to check.
        def check_fix(ractor)
          remedies = Array(ractor && ractor["remedies"])
          return nil if remedies.empty?

          lines = FixCheck.lines(remedies)
          source = FixCheck.scratch(@sources[@file] || File.read(@file), lines)
          result = part("fix", source: source) { |t, items| RactorPass.new(t, items, @file, budget: @budget) } if @fresh
          result ||= {"status" => "error", "problem" => "no fork here: the fix could not be checked"}
          FixCheck.verdict(lines, remedies, result)
        end
      end
    end
  end
end
