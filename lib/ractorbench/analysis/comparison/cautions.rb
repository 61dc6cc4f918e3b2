# frozen_string_literal: true

require_relative "../warnings"
require_relative "../../reports/parts/rows"
require_relative "../../plural"

module Ractorbench
  class Analysis
    class Analysis::Comparison
      # What a reader of `compare` must know before trusting its verdicts,
      # each with what to do: too few runs to see any change, configurations
      # on one side only, sides that computed different results or ran on
      # different machines, and each file's own noise warnings.
      module Cautions
        MACHINE_CODES = %w[load_before load_during limited_cores governor oversubscribed].freeze

        module_function

        def for(comparison, analyses)
          [too_few_runs(comparison), *one_sided(comparison), different_results(analyses), different_machines(analyses),
            *machine_warnings(analyses)].compact
        end

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

              "#{Plural.count(keys.size, "configuration")} only in #{label}, not compared: #{keys.first(3).map { |k| comparison.label(k) }.join(", ")}" \
                "#{" and #{keys.size - 3} more" if keys.size > 3}"
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
          described = analyses.map { |a, label| [label, a.header["machine"] || {}] }
          cpus = described.map { |_, m| [m["cpu_model"], m["usable_cores"]] }.uniq
          return nil if cpus.size < 2

          "the files were measured on different machines (#{described.map { |l, m| "#{l}: #{m["cpu_model"]}, #{m["usable_cores"]} usable cores" }.join("; ")}): " \
            "every change includes the machine's"
        end

        def machine_warnings(analyses)
          analyses.flat_map do |analysis, label|
            Analysis::Warnings.for(analysis, Reports::Parts::Rows.for(analysis))
              .select { |w| MACHINE_CODES.include?(w.code) }
              .map { |w| "#{label}: #{w.message}" }
          end
        end
      end
    end
  end
end
