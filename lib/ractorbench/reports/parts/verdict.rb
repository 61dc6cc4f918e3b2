# frozen_string_literal: true

require_relative "../../plural"
require_relative "../../analysis/disturbed"

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
        def busy?(analysis) = Analysis::Disturbed.too_many?(analysis.disturbed, analysis.runs.size)

        def inconclusive(analysis) = Analysis::Disturbed.busy_line("#{analysis.disturbed} of #{analysis.runs.size} runs", analysis.disturbed_runs)

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
