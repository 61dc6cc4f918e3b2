# frozen_string_literal: true

require_relative "../store/columns"

module Ractorbench
  class Analysis
    # Every model of one workload must compute the same thing. Runs are grouped
    # by what they computed (workload, number of jobs, parameters); the
    # baseline's runs' digest is the reference where there are any, else the
    # majority's.
    # Runs that disagree are failures and leave the statistics.
    class Analysis::DigestCheck
      Disagreement = Struct.new(:key, :expected, :runs, keyword_init: true)
      NONE = {}.freeze

      attr_reader :consensus, :disagreements

      # columns: the Store::Columns of every configuration of a file;
      # baseline: whether a model is a baseline (Plan::ModelTraits#baseline?).
      def initialize(columns, baseline:)
        @baseline = baseline
        @consensus = {}
        @disagreements = []
        @wrong_rows = {}
        columns.group_by { |c| key(c.configuration) }.each do |key, group|
          digests = group.to_h { |c| [c, digests_of(c)] }
          next if digests.values.all?(&:empty?)

          expected = reference(digests)
          @consensus[key] = expected
          wrong = []
          digests.each do |c, rows_by_digest|
            rows = rows_by_digest.reject { |digest, _| digest == expected }.values.flat_map(&:to_a).sort
            next if rows.empty?

            @wrong_rows[c] = rows.to_h { |row| [row, true] }
            wrong.concat(c.views(rows))
          end
          @disagreements << Disagreement.new(key: key, expected: expected, runs: wrong) unless wrong.empty?
        end
      end

      def agree?
        disagreements.empty?
      end

      # {row => true} of one configuration's runs whose digest disagrees.
      def wrong_rows(columns) = @wrong_rows.fetch(columns, NONE)

      # What a configuration computed: its workload, jobs and parameters.
      def self.key(configuration)
        [configuration.workload, configuration.workers.to_i * configuration.messages.to_i, configuration.params_label.to_s]
      end

      private

      def key(configuration) = self.class.key(configuration)

      # {digest => rows} of a configuration's successful runs that have one,
      # digests in the order their first runs come. Runs that all succeeded
      # with one digest (as they should) are not looked at one by one: their
      # rows are a Range, not a list of a million.
      def digests_of(columns)
        rows = 0...columns.size
        digest = columns.uniform("digest")
        if !Store::Columns::MISSING.equal?(digest) && columns.uniform("status") == "ok"
          return (digest && rows.size.positive?) ? {digest => rows} : {}
        end

        statuses = columns.values("status")
        digests = columns.values("digest")
        rows.select { |row| digests[row] && statuses[row] == "ok" }.group_by { |row| digests[row] }
      end

      # The baseline's runs' most common digest (else all runs'), the first
      # to come of those as common.
      def reference(digests)
        serial = digests.select { |c, _| @baseline.call(c.configuration.model) }.values
        counts = Hash.new(0)
        (serial.all?(&:empty?) ? digests.values : serial).each { |by_digest| by_digest.each { |digest, rows| counts[digest] += rows.size } }
        counts.max_by { |_, count| count }.first
      end
    end
  end
end
