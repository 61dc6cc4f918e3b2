# frozen_string_literal: true

module Ractorbench
  module Advisor
    # Values for what the check of the user's file found (harness/try/*
    # sends it as JSON-like Hashes; a try's results file keeps it in its
    # header), read by method everywhere past the boundary. Each kind
    # declares its members once, in the JSON's order: each named by its JSON
    # key, or by a name of its own with the key beside it (keys:) where the
    # key would hide one of Ruby's methods (class); a member that is facts
    # of another kind names that kind (kinds:; one, or a list).
    # At the boundary (`from`) a key no member names is left out and a
    # missing one is nil, as a Hash read by key gave; `to_h` gives the JSON
    # back, without the nils.
    module Facts
      # A class's name, which `class` would hide.
      CLASS_NAME = {class_name: "class"}.freeze

      def self.value(*names, keys: {}, kinds: {})
        json_keys = names.to_h { |n| [n, keys.fetch(n, n).to_s] }.freeze
        Struct.new(*json_keys.keys, keyword_init: true) do
          define_singleton_method(:json_keys) { json_keys }
          define_singleton_method(:kinds) { kinds }
          extend Reading
          include Writing
        end
      end

      # Facts of one kind from the JSON: nil for anything but a Hash.
      module Reading
        def from(hash)
          return nil unless hash.is_a?(Hash)

          new(**json_keys.to_h { |member, key| [member, read(member, hash[key])] })
        end

        # A list of them; nil entries (not a Hash) left out.
        def list(array) = Array(array).filter_map { |h| from(h) }

        private

        # A member of another kind read as that kind; a value of any other
        # type (a remedy's name) as it is.
        def read(member, value)
          kind = kinds[member]
          case value
          when Hash then kind ? kind.from(value) : value
          when Array then kind ? kind.list(value) : value
          else value
          end
        end
      end

      # The JSON again, and copies with members changed.
      module Writing
        def to_h
          self.class.json_keys.filter_map { |member, key| (v = written(self[member])).nil? ? nil : [key, v] }.to_h
        end

        # A copy with these members changed.
        def with(**changes) = dup.tap { |copy| changes.each { |member, value| copy[member] = value } }

        private

        def written(value)
          case value
          when Struct then value.to_h
          when Array then value.map { |v| v.is_a?(Struct) ? v.to_h : v }
          else value
          end
        end
      end
    end
  end
end
