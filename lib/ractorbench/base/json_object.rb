# frozen_string_literal: true

module Ractorbench
  # A JSON object past the boundary where it was parsed, read by method. A
  # kind declares its members once, each by its JSON key (`members :cores`),
  # a member that is an object of a kind of its own with that kind
  # (`member :machine, Machine`), and a list of such objects with theirs
  # (`list :rubies, Ruby`). An object that is absent, or not an object,
  # reads as an empty one (each member nil), a list that is not a list as
  # an empty list. The JSON is kept as it was read: `as_json` gives it back
  # unchanged (its order, keys no member names, nil for none), so what is
  # written again from it is byte for byte what was read.
  class JsonObject
    def self.members(*names) = names.each { |name| member(name) }

    def self.member(name, kind = nil)
      key = name.to_s
      return define_method(name) { @json[key] } unless kind

      define_method(name) { kind.new(@json[key]) }
    end

    def self.list(name, kind)
      key = name.to_s
      define_method(name) do
        items = @json[key]
        items.is_a?(Array) ? items.map { |item| kind.new(item) } : []
      end
    end

    attr_reader :as_json

    def initialize(json)
      @as_json = json
      @json = json.is_a?(Hash) ? json : {}
    end
  end
end
