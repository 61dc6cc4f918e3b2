# frozen_string_literal: true

require_relative "../suite"

# Message passing as Ruby's implementers measure it (Ractor messaging pull
# requests, the ractor_queue gem): one-way throughput 1->1 and 4->1, and
# round trips to one server (ping-pong, and a request answered with a small
# reply), each with a small string, a ~1 KB Hash copied, the same Hash deeply
# frozen (shared), and moved (ractors only; the other models get a "not
# measured" row saying why). Every model in its own channel: ractors (ports
# where the Ruby has them), threads with Thread::Queue, processes over pipes,
# fibers. Rates belong to one machine; the ratios between models are the
# point (`report` shows messages per second side by side per Ruby).
Ractorbench::Plan::Suite.define("messaging",
  "one-way 1->1 and 4->1, ping-pong and request round trips; string, 1 KB Hash copied, frozen, moved; ractors, threads, processes, fibers",
  reps: 6, title: "Message passing") do |s|
  models = %w[ractors threads processes fibers]
  %w[string hash frozen moved].each do |payload|
    s.entry workload: "messaging", models: models, configs: [[1, 20_000], [4, 5_000]], params: {"shape" => "one-way", "payload" => payload}
    %w[ping-pong request].each do |shape|
      s.entry workload: "messaging", models: models, configs: [[1, 5_000]], params: {"shape" => shape, "payload" => payload}
    end
  end
end
