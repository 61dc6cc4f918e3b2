# frozen_string_literal: true

require_relative "../../plural"
require_relative "../../measure/interference"

module Ractorbench
  module Reports
    module Parts
      # The lines under every human-readable report: how many runs succeeded,
      # whether the models agreed, and each failure with its reason.
      module Verdict
        module_function

        def lines(analysis)
          total = analysis.runs.size
          out = ["#{analysis.succeeded}/#{total} #{Plural.word(total, "run")} succeeded, #{analysis.failed} failed" +
            (analysis.unsupported.positive? ? ", #{analysis.unsupported} not supported or not measured" : "")]
          out << inconclusive(analysis) if busy?(analysis)
          out.concat(digest_lines(analysis.digest_check, analysis.succeeded))
          analysis.crashed_runs.first(20).each do |r|
            out << "  FAILED #{r["id"]}: #{r["reason"]}"
          end
          out
        end

        # Most runs disturbed by other programs: no figure of this file
        # should be taken as the answer.
        def busy?(analysis) = Measure::Interference.too_many?(analysis.disturbed, analysis.runs.size)

        def inconclusive(analysis) = busy_line("#{analysis.disturbed} of #{analysis.runs.size} runs", analysis.disturbed_runs)

        # The INCONCLUSIVE line of any verdict refused for disturbed runs
        # (`report`, `compare`, `report --by`): counted ("8 of 12 runs"),
        # their cause, anything more to say, and what to do.
        def busy_line(counted, disturbed_runs, more = nil)
          cause, remedy = cause_and_remedy(disturbed_runs)
          "INCONCLUSIVE: the machine was busy: #{counted} were disturbed #{cause}#{", #{more}" if more}, so no verdict " \
            "is given; #{remedy}"
        end

        # What disturbed most of these runs, and what to do about it: steal
        # is other virtual machines on the host, so closing programs here
        # does not help.
        def cause_and_remedy(disturbed_runs)
          if Measure::Interference.mostly_stolen?(disturbed_runs)
            ["by the hypervisor taking CPU from this VM (steal)", "run again when the host is quieter, or on a machine " \
              "of your own (closing programs here will not help)"]
          else
            ["by other programs", "close them, or run again with --wait-quiet"]
          end
        end

        def digest_lines(check, succeeded)
          # Runs without a digest (ops-per-second) check their own counts instead.
          return [] if check.consensus.empty? && succeeded.positive?
          return ["Digests: no successful runs to compare"] if check.consensus.empty?
          return ["Digests agree: every model computed the same results (#{Plural.count(check.consensus.size, "result set")})"] if check.agree?

          check.disagreements.flat_map do |d|
            workload, jobs, params = d.key
            ["DIGESTS DISAGREE for #{workload} (#{jobs} jobs#{", #{params}" unless params.empty?}): expected #{d.expected}; " \
              "these runs differ and are excluded from the statistics:"] +
              d.runs.map { |r| "  WRONG #{r["id"]}: digest #{r["digest"]}" }
          end
        end
      end
    end
  end
end
