# frozen_string_literal: true

module Ractorbench
  class Analysis
    # Every model of one workload must compute the same thing. Runs are grouped
    # by what they computed (workload, number of jobs, parameters); the serial
    # runs' digest is the reference where there are any, else the majority's.
    # Runs that disagree are failures and leave the statistics.
    class Analysis::DigestCheck
      Disagreement = Struct.new(:key, :expected, :runs, keyword_init: true)
      NONE = {}.freeze

      attr_reader :consensus, :disagreements

      # columns: the Store::Columns of every configuration of a file.
      def initialize(columns)
        @consensus = {}
        @disagreements = []
        @wrong_rows = {}
        columns.group_by { |c| key(c.configuration) }.each do |key, group|
          digests = group.to_h { |c| [c, digests_of(c)] }
          next if digests.values.all?(&:empty?)

          expected = reference(digests)
          @consensus[key] = expected
          wrong = []
          digests.each do |c, by_row|
            rows = by_row.filter_map { |row, digest| row unless digest == expected }
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
        params = (configuration.params || {}).sort.map { |k, v| "#{k}=#{v}" }.join(",")
        [configuration.workload, configuration.workers.to_i * configuration.messages.to_i, params]
      end

      private

      def key(configuration) = self.class.key(configuration)

      # [[row, digest]] of a configuration's successful runs that have one.
      def digests_of(columns)
        statuses = columns.values("status")
        columns.values("digest").each_with_index.filter_map do |digest, row|
          [row, digest] if digest && statuses[row] == "ok"
        end
      end

      def reference(digests)
        serial = digests.select { |c, _| c.configuration.model == Analysis::BASELINE }.values.flatten(1)
        pool = serial.empty? ? digests.values.flatten(1) : serial
        pool.map(&:last).tally.max_by { |_, count| count }.first
      end
    end
  end
end
