# frozen_string_literal: true

# IO-bound work: each item is a request to a slow service that answers in
# about 20 ms (the `sleep` stands in for the network round trip), and work
# parses the answer. Almost all of the time is waiting, so threads and
# fibers overlap it, even on one core.
#
#   ractorbench try examples/slow_service.rb
require "json"

module SlowService
  LATENCY = 0.02

  def self.items(n)
    Array.new(n) { |i| {"user" => i, "query" => "orders since #{2000 + i % 25}"} }
  end

  def self.work(request)
    reply = fetch(request)
    JSON.parse(reply)["count"]
  end

  def self.fetch(request)
    sleep(LATENCY) # the service thinking, and the network
    JSON.generate({"user" => request["user"], "count" => request["query"].sum % 97})
  end
end
