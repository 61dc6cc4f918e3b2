# frozen_string_literal: true

# JSON parsing: each item is an order document (about 20 KB of JSON); work
# parses it and totals its lines. CPU-bound Ruby plus the json C extension.
#
#   ractorbench try examples/json_parse.rb
require "json"

module JsonParse
  # 64 distinct documents, built once; items reuse them. Frozen strings are
  # shareable, so ractors receive them without a copy; processes still get
  # each one through a pipe.
  DOCUMENTS = Array.new(64) do |i|
    lines = Array.new(300) { |j| {"sku" => "SKU-#{i}-#{j}", "qty" => (i + j) % 7 + 1, "price" => ((i * 31 + j * 17) % 5000) / 100.0} }
    JSON.generate({"id" => i, "customer" => {"name" => "customer #{i}", "tags" => %w[retail priority]}, "lines" => lines}).freeze
  end.freeze

  def self.items(n)
    Array.new(n) { |i| DOCUMENTS[i % DOCUMENTS.size] }
  end

  def self.work(document)
    order = JSON.parse(document)
    total = order["lines"].sum { |line| line["qty"] * line["price"] }
    [order["id"], total.round(2)]
  end
end
