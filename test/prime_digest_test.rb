# frozen_string_literal: true

require "test_helper"
require_relative "../harness/workloads/prime"

# The seed's repository publishes yDHCXpC0fKd4mE6Hp4LXl3OIpV4= for 10,000
# chunks; ractorbench must compute it, and under every model.
class PrimeDigestTest < Minitest::Test
  include CLIHelper

  SEED_DIGEST = "yDHCXpC0fKd4mE6Hp4LXl3OIpV4="

  def test_ten_thousand_chunks_give_the_seeds_digest
    prime = Ractorbench::Workloads::Prime
    results = prime.jobs(10_000, {}).map { |n| prime.work(n) }
    assert_equal SEED_DIGEST, prime.digest(results.shuffle(random: Random.new(1)))
  end

  def test_first_chunk_folds_primality_with_n_highest
    n, bits = Ractorbench::Workloads::Prime.work(100)
    assert_equal 100, n
    flags = bits.to_s(2).rjust(100, "0").chars
    assert_equal (100..199).map { |k| k.prime? ? "1" : "0" }, flags
  end

  def test_every_model_produces_the_seeds_digest
    Dir.mktmpdir do |dir|
      out = File.join(dir, "r.jsonl")
      result = ractorbench("run", "-w", "prime", "--workers", "5", "--messages", "2000", "--reps", "1", "-o", out)
      assert_equal 0, result.code, result.err
      runs = runs_in(out)
      models = Ractorbench::Plan::Catalog.default.models.map(&:name).sort
      assert_equal models, runs.map { |r| r["model"] }.sort
      runs.each do |run|
        assert_equal "ok", run["status"], run.inspect
        assert_equal SEED_DIGEST, run["digest"], run["model"]
        assert_equal 10_000, run["results"]
      end
      assert_match(/#{models.size}\/#{models.size} runs succeeded, 0 failed/, result.out)
      assert_match(/Digests agree/, result.out)
    end
  end
end
