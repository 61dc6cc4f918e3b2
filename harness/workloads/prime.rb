# frozen_string_literal: true

require "digest/sha1"
require "prime"
require_relative "../ractorbench/harness"

module Ractorbench
  module Workloads
    # The prime bit-vector of "How Fast are Ractors?": message i is the chunk
    # n = i*100, whose result folds the primality of n..n+99 into one integer,
    # n's flag highest.
    module Prime
      extend Harness::Workload
      workload "prime", "prime bit-vector of 100 numbers a message (How Fast are Ractors?)"

      # Digests the seed's repository publishes, by number of chunks.
      KNOWN_DIGESTS = {
        50 => "aOpn1q9DW6RFwfKCTcd8N0UyzOA=",
        100 => "d56cHyl4i8zXBpYbRdxZ3f2zOaU=",
        10_000 => "yDHCXpC0fKd4mE6Hp4LXl3OIpV4="
      }.freeze

      def self.jobs(count, _params)
        (1..count).map { |i| i * 100 }.freeze
      end

      # A chunk of 100 numbers costs about 1,400 to 2,700 calls' time as n
      # grows from 100 to 10^10 (Integer#prime?); the upper end, to be safe.
      def self.estimate(count, _params, per_call) = count * 2_700 * per_call

      def self.work(n)
        bits = 0
        n.upto(n + 99) { |candidate| bits = (bits << 1) | (candidate.prime? ? 1 : 0) }
        [n, bits]
      end

      # The seed hashes the inspect string of the pairs sorted by n.
      def self.digest(results)
        Digest::SHA1.base64digest(results.sort_by(&:first).inspect)
      end

      def self.check(results, count, _params)
        expected = KNOWN_DIGESTS[count]
        return nil unless expected

        actual = digest(results)
        "digest #{actual} differs from the published #{expected} for #{count} chunks" unless actual == expected
      end
    end
  end
end
