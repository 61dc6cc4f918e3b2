# frozen_string_literal: true

module Ractorbench
  class Analysis
    # Every model of one workload must compute the same thing. Runs are grouped
    # by what they computed (workload, number of jobs, parameters); the serial
    # runs' digest is the reference where there are any, else the majority's.
    # Runs that disagree are failures and leave the statistics.
    class Analysis::DigestCheck
      Disagreement = Struct.new(:key, :expected, :runs, keyword_init: true)

      attr_reader :consensus, :disagreements

      def initialize(runs)
        with_digest = runs.select { |r| r["status"] == "ok" && r["digest"] }
        @consensus = {}
        @disagreements = []
        with_digest.group_by { |r| key(r) }.each do |key, group|
          expected = reference(group)
          @consensus[key] = expected
          wrong = group.reject { |r| r["digest"] == expected }
          @disagreements << Disagreement.new(key: key, expected: expected, runs: wrong) unless wrong.empty?
        end
      end

      def agree?
        disagreements.empty?
      end

      def wrong_ids
        @wrong_ids ||= disagreements.flat_map { |d| d.runs.map { |r| r["id"] } }.to_h { |id| [id, true] }
      end

      def wrong?(run)
        wrong_ids.key?(run["id"])
      end

      def self.key(run)
        params = (run["params"] || {}).sort.map { |k, v| "#{k}=#{v}" }.join(",")
        [run["workload"], run["workers"].to_i * run["messages"].to_i, params]
      end

      private

      def key(run) = self.class.key(run)

      def reference(group)
        serial = group.select { |r| r["model"] == Analysis::BASELINE }
        pool = serial.empty? ? group : serial
        pool.map { |r| r["digest"] }.tally.max_by { |_, count| count }.first
      end
    end
  end
end
