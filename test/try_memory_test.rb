# frozen_string_literal: true

require "test_helper"

# Forked workers share the supervisor's pages until they write to them: the
# processes model reports their proportional set size (each shared page
# split among its sharers), which must come out below the plain sum of RSS
# that counts a 48 MB read-only blob once per process.
class TryMemoryTest < Minitest::Test
  include CLIHelper

  def test_processes_report_pss_below_the_rss_sum
    Dir.mktmpdir do |dir|
      results = File.join(dir, "big.jsonl")
      result = ractorbench("try", fixture("try/big_shared.rb"), "--models", "processes", "--workers", "2,3",
        "--items", "6", "--reps", "1", "-o", results)
      assert_equal 0, result.code, result.out + result.err
      runs = runs_in(results).select { |r| r["model"] == "processes" }
      assert_equal 2, runs.size
      runs.each do |r|
        pss = r["supervisor_pss_kb"] + r["workers_pss_kb"]
        rss = r["peak_rss_kb"] + r["workers_peak_rss_kb"]
        assert_operator r["workers_peak_rss_kb"], :>, 40_000 * r["workers"], "each worker maps the 48 MB blob"
        assert_operator pss, :<, rss, r.inspect
        # Shared once, not once per process: well under two blobs' worth
        # more than one process holds.
        assert_operator pss, :<, r["peak_rss_kb"] + 2 * 48_000, r.inspect
      end
      assert_match(/\d+\.\d PSS \(\d+\.\d\)/, result.out)
    end
  end
end
