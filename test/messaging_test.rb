# frozen_string_literal: true

require "test_helper"
require File.join(ROOT, "harness", "workloads", "messaging")

# The messaging workload and suite: real ractors, threads, processes and
# fibers pass real messages; each run's check (every sender's messages
# arrive once each, in the order sent, whole) is the workload's own, so a
# run that says "ok" was counted and checked. Run on 3.1 and on 4.0: the
# ractors' channel is a Ractor::Port where the Ruby has ports.
class MessagingTest < Minitest::Test
  include CLIHelper
  include TempDir

  MODELS = %w[ractors threads processes fibers].freeze
  Messaging = Ractorbench::Workloads::Messaging

  def collect(*args)
    out = File.join(@dir, "m#{args.hash}.jsonl")
    result = ractorbench("run", "-w", "messaging", "-m", MODELS.join(","), "--reps", "1", *args, "-o", out)
    assert_includes [0, 1], result.code, result.err
    runs_in(out)
  end

  def test_every_model_delivers_every_message_of_every_shape_and_payload
    %w[one-way ping-pong request].each do |shape|
      runs = collect("--workers", "3", "--messages", "40", "--param", "shape=#{shape}", "--param", "payload=hash")
      assert_equal MODELS.sort, runs.map { |r| r["model"] }.sort
      runs.each do |run|
        assert_equal "ok", run["status"], "#{shape} #{run["model"]}: #{run["reason"]}"
        assert_equal 120, run["results"], "#{shape} #{run["model"]}: 3 x 40 messages"
        assert_match(/\A#{(shape == "one-way") ? "messages" : "round trips"}: /, run["variant"])
      end
      assert_equal 1, runs.map { |r| r["digest"] }.uniq.size, "#{shape}: every model received the same messages"
    end
  end

  def test_the_ractors_channel_is_a_port_where_the_ruby_has_ports
    run = collect("-m", "ractors", "--workers", "2", "--messages", "10").first
    assert_equal "ok", run["status"], run["reason"]
    channel = defined?(Ractor::Port) ? "a Ractor::Port" : "main's mailbox (Ractor#send)"
    assert_includes run["variant"], channel
  end

  def test_a_moved_payload_is_unusable_by_its_sender_after_the_move
    %w[one-way ping-pong request].each do |shape|
      runs = collect("--workers", "2", "--messages", "30", "--param", "shape=#{shape}", "--param", "payload=moved").to_h { |r| [r["model"], r] }
      moved = runs.fetch("ractors")
      assert_equal "ok", moved["status"], "#{shape}: #{moved["reason"]}"
      assert_equal 60, moved["results"]
      assert_equal true, moved["moved_unusable"], "#{shape}: the sender could still read a payload it had moved"
      assert_includes moved["variant"], "moved (send move: true)"
      (MODELS - ["ractors"]).each do |model|
        assert_equal "unsupported", runs.fetch(model)["status"], model
        assert_match(/payload=moved is for ractors: #{model} /, runs.fetch(model)["reason"])
      end
    end
  end

  def test_the_check_refuses_lost_repeated_reordered_or_cut_messages
    whole = [[0, 0, 16], [1, 0, 16], [0, 1, 16], [1, 1, 16]]
    params = {payload: "hash"}
    assert_nil Messaging.check(whole, 4, params)
    assert_match(/expected 4 messages, got 3/, Messaging.check(whole.first(3), 4, params))
    assert_match(/sender 0's 2 messages did not arrive as 0..1 in order/, Messaging.check([[0, 1, 16], [1, 0, 16], [0, 0, 16], [1, 1, 16]], 4, params))
    assert_match(/sender 1's 2 messages did not arrive/, Messaging.check([[0, 0, 16], [1, 0, 16], [0, 1, 16], [1, 0, 16]], 4, params))
    assert_match(/a payload arrived with 15 entries, not 16/, Messaging.check([[0, 0, 16], [1, 0, 15], [0, 1, 16], [1, 1, 16]], 4, params))
  end

  def test_the_suite_runs_every_shape_and_payload_and_reports_rates
    out = File.join(@dir, "suite.jsonl")
    result = ractorbench("run", "--suite", "messaging", "--scale", "0.01", "--reps", "1", "-o", out)
    assert_includes [0, 1], result.code, result.err
    runs = runs_in(out)
    params = runs.map { |r| r["params"] }.uniq
    assert_equal 12, params.size, "3 shapes x 4 payloads"
    assert_equal [[1, 200], [1, 50], [4, 50]].sort, runs.map { |r| [r["workers"], r["messages"]] }.uniq.sort
    ok, unsupported = runs.partition { |r| r["status"] == "ok" }
    assert_equal [], unsupported.reject { |r| r["status"] == "unsupported" && r["params"]["payload"] == "moved" }.map { |r| [r["id"], r["reason"]] }
    ok.each { |r| assert_equal r["workers"] * r["messages"], r["results"], r["id"] }
    assert_equal 12, unsupported.size, "moved is for ractors only: 4 sizes and shapes x 3 other models"
    # The report's rates: every measured model of a panel, the fastest named.
    report = ractorbench("report", out, "--format", "text")
    assert_equal 0, report.code, report.err
    assert_includes report.out, "Message passing: messages (one-way, msg/s)"
    assert_equal 16, report.out.scan(/ fastest$/).size, "one fastest model per shape, payload and size (4 x (2 one-way sizes + 2 round trips))"
  end
end
