# frozen_string_literal: true

# Run by the driver with a Ruby under test before a --profile=vernier
# collection: can this Ruby load the vernier gem? One record on the result
# channel (Harness::Channel): its version, or why not.
require_relative "ractorbench/harness/program_start"
require_relative "ractorbench/harness/channel"

Ractorbench::Harness::Channel.io
record = begin
  require "vernier"
  {"vernier" => Vernier::VERSION}
rescue LoadError, StandardError => e
  {"reason" => "#{e.class}: #{e.message.lines.first.to_s.strip}"}
end
Ractorbench::Harness::Channel.write(record)
