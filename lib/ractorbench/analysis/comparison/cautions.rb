# frozen_string_literal: true

require_relative "../warnings"
require_relative "../rows"
require_relative "../disturbed"
require_relative "../../base/plural"

module Ractorbench
  class Analysis
    class Analysis::Comparison
      # What a reader of `compare` must know before trusting its verdicts,
      # each with what to do: too few runs to see any change, configurations
      # too disturbed to judge, configurations on one side only, sides that
      # computed different results or ran on different machines, and each
      # file's own warnings about the machine (disturbed runs among them).
      module Cautions
        MACHINE_CODES = %w[load_before load_during disturbed limited_cores governor oversubscribed].freeze
        SHOWN = 3 # configurations named in a caution; the rest are counted

        module_function

        def for(comparison, analyses)
          [too_few_runs(comparison), *inconclusive_configurations(comparison), *one_sided(comparison),
            different_results(analyses), different_machines(analyses), *machine_warnings(analyses)].compact
        end

        # Nothing could be judged (Comparison#inconclusive?): the verdict of
        # the whole comparison, with the disturbed runs' cause and remedy
        # as `report` gives them; nil otherwise.
        def inconclusive(comparison)
          return nil unless comparison.inconclusive?
          return busy(comparison.busy_sides) unless comparison.busy_sides.empty?

          groups = comparison.compared_groups
          Analysis::Disturbed.busy_line("#{groups.sum(&:disturbed_count)} of #{groups.sum { |g| g.runs.size }} runs compared",
            groups.select(&:too_disturbed?).flat_map(&:runs_disturbed), "too many on a side of every configuration to judge")
        end

        # Sides (Side#busy?) most of whose runs were disturbed: their INCONCLUSIVE line, or nil.
        def busy(sides)
          return nil if sides.empty?

          Analysis::Disturbed.busy_line(sides.map { |side| "#{side.disturbed_count} of #{side.run_count} runs of #{side.label}" }.join(" and "),
            sides.flat_map(&:disturbed_runs))
        end

        # Some configurations, not all, too disturbed to judge: sides most
        # of whose runs were disturbed, then configurations too disturbed
        # on a side.
        def inconclusive_configurations(comparison)
          return [] if comparison.inconclusive?

          busy = comparison.busy_sides.map do |side|
            "#{side.label}: #{side.disturbed_count} of #{side.run_count} runs were disturbed, most of them, so none of " \
              "its configurations is judged (nor counted by --fail-above)"
          end
          named = disturbed_labels(comparison)
          return busy if named.empty?

          [*busy, "#{Plural.count(named.size, "configuration")} #{Plural.verb(named.size, "is", "are")} inconclusive, " \
            "most runs of a side disturbed, so no change is claimed (nor counted by --fail-above): #{shown(named)}"]
        end

        # "nap/serial/w2/m5/ruby (after.jsonl: 8 of 10 runs disturbed)" for
        # each configuration too disturbed on a side; configurations of busy
        # sides are not named one by one.
        def disturbed_labels(comparison)
          comparison.againsts.flat_map do |ag|
            labels = {"A" => comparison.baseline.label, "B" => ag.side.label}
            ag.rows.filter_map do |r|
              sides = r.disturbed_sides.except(*r.busy_sides)
              next if sides.empty?

              counts = sides.map { |side, g| "#{labels[side]}: #{g.disturbed_count} of #{Plural.count(g.runs.size, "run")}" }
              "#{comparison.label(r.key)} (#{counts.join(", ")} disturbed)"
            end
          end
        end

        # Everything left unjudged for its disturbed runs, for one line.
        def not_judged(comparison)
          comparison.busy_sides.map { |side| "every configuration of #{side.label} (#{side.disturbed_count} of #{side.run_count} runs disturbed)" } +
            disturbed_labels(comparison)
        end

        def shown(named) = named.first(SHOWN).join(", ") + ((named.size > SHOWN) ? " and #{named.size - SHOWN} more" : "")

        def too_few_runs(comparison)
          need = comparison.runs_needed
          return nil unless need

          "with #{Plural.count(comparison.comparisons, "comparison")}, some configurations have too few runs for any change to " \
            "count, however large (Mann-Whitney at alpha #{comparison.alpha}, Holm-adjusted): run each side with " \
            "--reps #{need} or more"
        end

        def one_sided(comparison)
          comparison.againsts.flat_map do |ag|
            [[ag.only_a, comparison.baseline.label], [ag.only_b, ag.side.label]].filter_map do |keys, label|
              next if keys.empty?

              "#{Plural.count(keys.size, "configuration")} only in #{label}, not compared: #{shown(keys.map { |k| comparison.label(k) })}"
            end
          end
        end

        # The same workload, jobs and parameters computed different digests
        # in different files: the two versions of the code do different work.
        def different_results(analyses)
          return nil if analyses.size < 2

          base, base_label = analyses.first
          differing = analyses.drop(1).flat_map do |analysis, label|
            base.digest_check.consensus.filter_map do |key, digest|
              other = analysis.digest_check.consensus[key]
              "#{key.first} (#{key[1]} jobs) in #{label}" if other && other != digest
            end
          end
          return nil if differing.empty?

          "the sides computed different results (digests differ from #{base_label}) for #{differing.first(3).join(", ")}: " \
            "a time difference there may be different work, not different speed"
        end

        def different_machines(analyses)
          described = analyses.map { |a, label| [label, a.header.machine] }
          cpus = described.map { |_, m| [m.cpu_model, m.usable_cores] }.uniq
          return nil if cpus.size < 2

          "the files were measured on different machines (#{described.map { |l, m| "#{l}: #{m.cpu_model}, #{m.usable_cores} usable cores" }.join("; ")}): " \
            "every change includes the machine's"
        end

        def machine_warnings(analyses)
          analyses.flat_map do |analysis, label|
            Analysis::Warnings.for(analysis, Analysis::Rows.for(analysis))
              .select { |w| MACHINE_CODES.include?(w.code) }
              .map { |w| "#{label}: #{w.message}" }
          end
        end
      end
    end
  end
end
