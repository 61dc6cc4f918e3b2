# frozen_string_literal: true

require_relative "json_value"

module Ractorbench
  module Profile
    # What a results header records of --profile (Stage#to_h): what was
    # asked (Request::TOOLS, "auto" or "stackprof"), the tool each Ruby got
    # ({ruby name => "perf" | "vernier" | nil}) and the lines said about
    # those that got none. A header without it: a collection without --profile.
    Choice = Struct.new(:asked, :tools, :notes, keyword_init: true) do
      include JsonValue

      # The header's entry, or nil.
      def self.of(header) = header && from(header["profile"])
    end
  end
end
