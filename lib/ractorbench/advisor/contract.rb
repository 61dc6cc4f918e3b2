# frozen_string_literal: true

module Ractorbench
  module Advisor
    # What `try` asks of the user's file, and what it does with it: the
    # head of `ractorbench try --help`.
    module Contract
      TEXT = <<~TEXT
        FILE defines one module (or class) with a module method `work`, and optionally `items`:

            require "json"

            module ParseOrders
              def self.items(n)      # n inputs for work (optional; default 1..n)
                Array.new(n) { |i| JSON.generate({"id" => i, "lines" => [i, i * 2]}) }
              end

              def self.work(item)    # one unit of your work; returns its result
                JSON.parse(item)["lines"].sum
              end
            end

        work must return the same result for the same item whichever model runs it: ractorbench
        compares every model's results with serial's, item by item. Items go to processes with
        Marshal and to ractors as copies, so keep them plain data.

        try first checks FILE in a few seconds: work inside a real ractor and in threads side by side,
        each before anything else has called it (as in a sweep), then the contract, a few items timed
        and Marshal. When a model cannot run the work it lists every problem (which object, where,
        why) and what to change: for ractors the check runs again on its own copy of FILE past each
        problem until none is left. A fix it prints was checked on a copy of FILE. It sweeps the others.
        --fix writes that copy with every mechanical fix (FILE never changes), then checks and sweeps it.
      TEXT
    end
  end
end
