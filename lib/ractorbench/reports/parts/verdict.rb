# frozen_string_literal: true

require_relative "../../base/plural"
require_relative "../../analysis/disturbed"

module Ractorbench
  module Reports
    module Parts
      # The lines under every human-readable report: how many runs succeeded,
      # whether the models agreed, and each failure with its reason.
      module Verdict
        # Runs listed by id, failed or of a wrong digest (each kind); the
        # rest are counted. A model that computes the wrong thing does so in
        # every run, and a file of a million runs listed every one of them.
        LISTED = 20

        module_function

        def lines(analysis)
          total = analysis.runs.size
          out = ["#{analysis.succeeded}/#{total} #{Plural.word(total, "run")} succeeded, #{analysis.failed} failed" +
            (analysis.unsupported.positive? ? ", #{analysis.unsupported} not supported or not measured" : "")]
          out << inconclusive(analysis) if busy?(analysis)
          out.concat(digest_lines(analysis.digest_check, analysis.succeeded))
          out.concat(listed(analysis.crashed_runs, "FAILED") { |r| "  FAILED #{r.id}: #{r.reason}" })
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
              listed(d.runs, "WRONG", " with another digest") { |r| "  WRONG #{r.id}: digest #{r.digest}" }
          end
        end

        # The first LISTED runs, a line each (the block's), then how many more.
        def listed(runs, label, what = "")
          lines = runs.first(LISTED).map { |r| yield r }
          return lines if runs.size <= LISTED

          lines << "  #{label}: #{Plural.count(runs.size - LISTED, "more run")}#{what} (--format json lists every one)"
        end
      end
    end
  end
end
