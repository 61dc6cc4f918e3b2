# frozen_string_literal: true

require "json"
require_relative "../analysis/rows"
require_relative "parts/ops_tables"
require_relative "parts/profile_tables"
require_relative "../analysis/warnings"

require_relative "../reports"

module Ractorbench
  module Reports
    # Everything a program needs: machine, rubies, one object per
    # configuration, the digest verdict and every failure.
    module Json
      module_function

      def render(analysis)
        check = analysis.digest_check
        header = analysis.header
        JSON.pretty_generate(
          "tool" => "ractorbench", "version" => VERSION,
          "machine" => header.machine.as_json, "rubies" => header.rubies.map(&:as_json), "seed" => header.seed,
          "succeeded" => analysis.succeeded, "failed" => analysis.failed, "unsupported" => analysis.unsupported,
          "digests_agree" => check.agree?,
          "disagreements" => check.disagreements.map { |d| {"key" => d.key, "expected" => d.expected, "runs" => d.runs.map(&:id)} },
          "failures" => analysis.crashed_runs.map { |r| r.slice("id", "failure", "reason", "stderr_tail") },
          "first_run" => {"mode" => analysis.first_run.mode, "note" => analysis.first_run.describe},
          "configurations" => (rows = Analysis::Rows.for(analysis)),
          "ops_per_second" => Parts::OpsTables.json(analysis),
          **profiles(analysis),
          "warnings" => Analysis::Warnings.for(analysis, rows).map { |w| {"code" => w.code, "message" => w.message} }
        ) + "\n"
      end

      # Where the time went, in a file collected with --profile.
      def profiles(analysis)
        findings = Profile::Findings.of(analysis)
        return {} unless findings.asked

        {"profiles" => Parts::ProfileTables.json(findings), "profile_cautions" => findings.cautions}
      end
    end

    register("json", Json, extension: "json")
  end
end
