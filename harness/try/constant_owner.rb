# frozen_string_literal: true

require_relative "user_code"
require_relative "own_code"

module Ractorbench
  module Harness
    module Try
      # Where a constant named in a Ractor::IsolationError really lives.
      # Ruby 3.1's message names the constant by the lexical scope of the
      # code that read it ("Nbody::BODIES" for a top-level BODIES read inside
      # module Nbody); 4.x names the owner ("Object::BODIES"). Looking the
      # name up the way Ruby does (the scope, its enclosing modules, its
      # ancestors, then Object) finds the module that holds it either way.
      module ConstantOwner
        module_function

        # {"name", "owner", "constant", "expression", "private", "defined_at",
        #  "library", "class", "frozen", "shareable"} or nil when the name
        # resolves to nothing.
        def resolve(text)
          parts = text.to_s.sub(/\A(::|Object::)/, "").split("::")
          short = parts.pop
          return nil unless short&.match?(/\A[A-Z]\w*\z/)

          scope = parts.empty? ? Object : lookup(parts.join("::"))
          owner = scope && candidates(scope, parts).find { |m| defined_here?(m, short) }
          owner ? describe(owner, short) : nil
        end

        def describe(owner, short)
          value = owner.const_get(short, false)
          file, line = source_location(owner, short)
          private = !owner.constants(false).include?(short.to_sym)
          {"name" => full_name(owner, short), "owner" => OwnCode.name_of(owner), "constant" => short,
           "expression" => expression(owner, short, private), "private" => private,
           "defined_at" => (file && line.to_i.positive?) ? "#{file}:#{line}" : nil,
           "library" => file ? library(file) : "ruby", "gem" => file && gem_version(file), "class" => value.class.name,
           "frozen" => value.frozen?, "shareable" => Ractor.shareable?(value)}
        end

        # Object::BODIES, not ::BODIES or BODIES: the form Ruby 4.x prints.
        def full_name(owner, short) = "#{OwnCode.name_of(owner)}::#{short}"

        # What code at the end of the user's file writes to reach it.
        def expression(owner, short, private)
          return "#{OwnCode.name_of(owner)}.const_get(:#{short})" if private
          return short if owner == Object

          "#{OwnCode.name_of(owner)}::#{short}"
        end

        def value(info)
          lookup(info["owner"]).const_get(info["constant"], false)
        end

        def candidates(scope, parts)
          enclosing = (parts.size - 1).downto(1).filter_map { |n| lookup(parts.first(n).join("::")) }
          [scope, *enclosing, *scope.ancestors, Object].uniq.select { |m| m.is_a?(Module) && OwnCode.name_of(m) }
        end

        def defined_here?(mod, short)
          mod.const_defined?(short, false)
        rescue NameError
          false
        end

        def lookup(name)
          mod = Object.const_get(name)
          mod.is_a?(Module) ? mod : nil
        rescue NameError, ArgumentError
          nil
        end

        def source_location(owner, short)
          owner.const_source_location(short, false)
        rescue NameError, ArgumentError
          nil
        end

        # An installed gem's name and version from a path under it
        # ("csv 3.3.5"), else nil (Ruby's standard library, the user's code).
        def gem_version(path)
          m = path.to_s.match(%r{/gems/([^/]+?)-(\d[^/-]*)(?:-[^/]*)?/})
          m && "#{m[1]} #{m[2]}"
        end

        # nil for the user's own code; else the gem or standard library the
        # file belongs to ("csv", "rubygems"), or "ruby" for the interpreter.
        def library(path)
          path = path.sub(/\A<internal:/, "").chomp(">")
          return "ruby" if path.start_with?("<") || path.empty?
          return nil if UserCode.user?(path)

          gem = path[%r{/gems/([^/]+?)-\d[^/]*/}, 1]
          return gem if gem

          dir = UserCode::NOT_USER.find { |d| File.expand_path(path).start_with?(d) }
          rest = dir ? File.expand_path(path).delete_prefix(dir) : File.basename(path)
          rest.split("/").reject { |p| p.match?(/\A(vendor_ruby|site_ruby|\d+\.\d+\.\d+|x86_64.*)\z/) }.first.to_s.sub(/\.rb\z/, "")
        end
      end
    end
  end
end
