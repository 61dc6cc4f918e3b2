# frozen_string_literal: true

require_relative "../comparison"

module Ractorbench
  class Analysis
    class Analysis::Comparison
      # What differs between two sides besides their times, read from their
      # headers: the work itself (a try file's digest), the Ruby, the
      # machine. Each is a Fact: its name, the value on each side, and
      # whether they differ, so a reader knows what a change can be put down to.
      module Differences
        Fact = Struct.new(:name, :a, :b, keyword_init: true) do
          def differs? = a != b
        end
        # Digits of a file's digest shown: enough to tell two apart.
        DIGEST_SHOWN = 12

        module_function

        # Facts of side against baseline that both sides know.
        def of(baseline, side)
          [work(baseline, side), ruby(baseline, side), machine(baseline, side)].compact
        end

        # try's file, by its contents' digest (the header's "try" findings).
        def work(a, b)
          tries = [a, b].map { |s| s.header&.try }
          digests = tries.map { |t| t&.dig("file_digest") }
          return nil unless digests.all?

          names = tries.map { |t| "#{t.dig("module")} in #{File.basename(t.dig("file").to_s)}" }
          Fact.new(name: "the work", a: "#{names[0]}, sha1 #{digests[0][0, DIGEST_SHOWN]}",
            b: "#{names[1]}, sha1 #{digests[1][0, DIGEST_SHOWN]}")
        end

        # The Rubies each side ran, as they describe themselves.
        def ruby(a, b)
          a_rubies, b_rubies = [a, b].map { |s| rubies(s) }
          return nil if a_rubies.empty? || b_rubies.empty?

          Fact.new(name: "the Ruby", a: a_rubies.join("; "), b: b_rubies.join("; "))
        end

        def rubies(side)
          used = side.groups.map(&:ruby).uniq
          Array(side.header&.rubies).select { |r| used.include?(r.name) }.map { |r| r.info.description || r.name }.uniq
        end

        def machine(a, b)
          described = [a, b].map { |s| machine_text(s.header&.machine) }
          return nil unless described.all?

          Fact.new(name: "the machine", a: described[0], b: described[1])
        end

        def machine_text(m)
          return nil if m.nil? || m.as_json.nil?

          "#{m.cpu_model}, #{m.usable_cores} usable of #{m.cores} cores, #{m.hostname}"
        end

        # "What differs: the work (A: ..., B: ...). The same: the Ruby (...), the machine (...)."
        def lines(facts)
          return [] if facts.empty?

          differ, same = facts.partition(&:differs?)
          lines = []
          lines << "What differs: #{differ.map { |f| "#{f.name} (A: #{f.a}; B: #{f.b})" }.join(", ")}" unless differ.empty?
          lines << "The same on both: #{same.map { |f| "#{f.name} (#{f.a})" }.join(", ")}" unless same.empty?
          lines
        end
      end
    end
  end
end
