# frozen_string_literal: true

module Ractorbench
  module Harness
    module RubyBench
      # What a run's blocks returned, judged: one value from every block (the
      # run's digest, which every model's runs must share), values that
      # differ between workers (a wrong result: every worker runs the same
      # block with the same arguments), or no comparison at all when a value
      # cannot be written down or one worker's own calls disagree (the
      # benchmark's result changes from call to call, so nothing can be
      # checked). A result is [digest or nil, note or nil] per measured block.
      module Values
        VARIES = "varies"
        Verdict = Struct.new(:digest, :problem, :text)

        module_function

        # The results of a run's reports: each measured block's [digest,
        # note], a worker whose own digests (warm-up rounds included) differ
        # marked VARIES. earlier: {worker index => digests of warm-up rounds
        # run by other workers of that index} (warm-up rounds of fresh workers).
        def results(reports, earlier = {})
          reports.flat_map do |report|
            own = earlier.fetch(report[:index], []) + report[:warm] + report[:digests].map(&:first)
            varies = own.compact.uniq.size > 1
            report[:digests].map { |digest, note| varies ? [nil, VARIES] : [digest, note] }
          end
        end

        def judge(results)
          notes = results.map(&:last).compact.uniq
          if notes.include?(VARIES)
            return Verdict.new(nil, nil, "not compared: a worker's block returned different values from one call to the next")
          end

          unreadable = notes.find { |n| n != "first MB" }
          return Verdict.new(nil, nil, "not compared: #{unreadable}") if unreadable

          digests = results.map(&:first).uniq
          if digests.size > 1
            return Verdict.new(nil, "the workers' blocks returned #{digests.size} different values " \
              "(#{results.size} blocks); every worker runs the same block on the same arguments", "differ between workers")
          end

          Verdict.new(digests.first, nil, notes.empty? ? "compared" : "compared by their first MB of Marshal data")
        end
      end
    end
  end
end
