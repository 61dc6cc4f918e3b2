# frozen_string_literal: true

require "json"
require_relative "rows"

module Ractorbench
  module Reports
    # Everything a program needs: machine, rubies, one object per
    # configuration, the digest verdict and every failure.
    module Json
      module_function

      def render(analysis)
        check = analysis.digest_check
        JSON.pretty_generate(
          "tool" => "ractorbench", "version" => VERSION,
          "machine" => analysis.header["machine"], "rubies" => analysis.header["rubies"], "seed" => analysis.header["seed"],
          "succeeded" => analysis.succeeded, "failed" => analysis.failed, "unsupported" => analysis.unsupported,
          "digests_agree" => check.agree?,
          "disagreements" => check.disagreements.map { |d| {"key" => d.key, "expected" => d.expected, "runs" => d.runs.map { |r| r["id"] }} },
          "failures" => analysis.runs.select { |r| r["status"] == "failed" }.map { |r| r.slice("id", "failure", "reason", "stderr_tail") },
          "configurations" => Rows.for(analysis)
        ) + "\n"
      end
    end

    register("json", Json)
  end
end
