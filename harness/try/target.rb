# frozen_string_literal: true

# SHA-1, which the results digest (ResultDigest) loads anyway: the check and
# the runs load no library the user's work might be first to use.
require "digest/sha1"
require_relative "user_code"
require_relative "../ractorbench/harness/error_text"
require_relative "own_code"

module Ractorbench
  module Harness
    module Try
      # The user's file broke the contract (or could not even load); the
      # message says what to change and `location` points into their file.
      class ContractError < StandardError
        attr_reader :location

        def initialize(message, location = nil)
          super(message)
          @location = location
        end
      end

      # The file is not the one the check saw.
      class FileChanged < StandardError; end

      # The work a user's file defines: a module (or class) with
      #
      #   self.work(item)  one unit of work; returns its result
      #   self.items(n)    optional: an Array of n inputs (default 1..n)
      #
      # found as the module whose `work` method the file itself defines.
      module Target
        module_function

        # source: the text to load in place of the file's (a scratch copy with
        # a suggested fix applied), loaded as if it were the file; helpers:
        # {path => text} of files it requires, loaded first in their place.
        # digest: the file's digest as the check saw it; the bytes read are
        # those compared and those loaded, or the load fails (FileChanged).
        def load(path, name = nil, source: nil, helpers: {}, digest: nil)
          path = File.expand_path(path)
          source ||= checked_source(path, digest) if digest
          own = OwnCode.snapshot
          helpers.each { |helper, text| load_source(File.expand_path(helper), text) }
          source ? load_source(path, source) : require_file(path)
          untouched!(own, path)
          mod = name ? named(path, name) : discover(path)
          check_arity(mod, :work, path)
          check_arity(mod, :items, path) if mod.respond_to?(:items)
          mod
        end

        def checked_source(path, digest)
          bytes = File.binread(path)
          problem = change(path, digest, bytes)
          raise FileChanged, problem if problem

          bytes.force_encoding(Encoding::UTF_8)
        end

        # What a file is compared by (hex): the check's and each run's.
        def digest(bytes) = Digest::SHA1.hexdigest(bytes)

        # nil, or how path differs from the file whose digest is digest.
        def changed(path, digest)
          change(path, digest, File.binread(path))
        rescue SystemCallError => e
          "#{path} changed since ractorbench checked it: it cannot be read now (#{e.message.sub(/ @ \w+/, "")})"
        end

        def change(path, digest, bytes)
          now = digest(bytes)
          return if now == digest

          "#{path} changed since ractorbench checked it (SHA-1 #{digest[0, 12]}..., now #{now[0, 12]}...): " \
            "what would run is not the code checked"
        end

        # ractorbench measures the work with its own code around it: a file
        # that redefines any of it is refused, whatever else it defines.
        def untouched!(own, path)
          changed = OwnCode.changed(own)
          return if changed.empty?

          names = changed.keys
          raise ContractError.new("it redefines ractorbench's own #{names.first(3).join(", ")}#{" and more" if names.size > 3}; " \
            "ractorbench runs your work with its own code around it: define work(item) in a module of your own instead",
            location(changed.values.first) || path)
        end

        # n inputs for `work`; raising, or returning anything but n of them,
        # breaks the contract.
        def items(mod, n)
          return (1..n).to_a unless mod.respond_to?(:items)

          list = call_items(mod, n)
          where = location(mod.method(:items))
          unless list.respond_to?(:to_a)
            raise ContractError.new("#{OwnCode.name_of(mod)}.items(#{n}) returned #{list.class}; it must return an Array of #{n} items", where)
          end

          list = list.to_a
          return list if list.size == n

          raise ContractError.new("#{OwnCode.name_of(mod)}.items(#{n}) returned #{list.size} items; it must return exactly n (#{n})", where)
        end

        def call_items(mod, n)
          mod.items(n)
        rescue => e
          frame = UserCode.frame(e.backtrace, mod.method(:items).source_location&.first)
          raise ContractError.new("#{OwnCode.name_of(mod)}.items(#{n}) raised #{ErrorText.line(e)}", frame&.to_s)
        end

        def location(method)
          file, line = method.source_location
          file && "#{file}:#{line}"
        end

        def require_file(path)
          require path
        rescue SyntaxError => e
          raise ContractError.new(syntax_message(e, path), syntax_location(e, path))
        rescue ScriptError, StandardError => e
          frame = UserCode.frame_in(e.backtrace, path) || UserCode.frame(e.backtrace)
          raise ContractError.new("loading it raised #{ErrorText.line(e)}", frame&.to_s || path)
        end

        # The scratch copy is compiled under the file's own path, so that
        # __dir__ and require_relative behave as in the file.
        def load_source(path, source)
          $LOADED_FEATURES << path
          RubyVM::InstructionSequence.compile(source, path, path).eval
        rescue SyntaxError => e
          raise ContractError.new(syntax_message(e, path), syntax_location(e, path))
        rescue ScriptError, StandardError => e
          frame = UserCode.frame_in(e.backtrace, path) || UserCode.frame(e.backtrace)
          raise ContractError.new("loading it raised #{ErrorText.line(e)}", frame&.to_s || path)
        end

        def syntax_message(error, path)
          text = error.message.lines.map(&:strip).find { |l| l.include?("syntax error") } || error.message.lines.first.to_s.strip
          "syntax error: " + text.sub(/\A.*?:\d+: /, "").sub(/\Asyntax error,?\s*/, "")
        end

        def syntax_location(error, path)
          line = error.message[/#{Regexp.escape(path)}:(\d+)/, 1] || error.message[/:(\d+):/, 1]
          line ? "#{path}:#{line}" : path
        end

        def named(path, name)
          mod = Object.const_get(name)
          raise ContractError.new("--module #{name} is a #{mod.class}, not a module or class", path) unless mod.is_a?(Module)
          return mod if mod.respond_to?(:work)

          raise ContractError.new("#{name} has no module method work(item); define `def self.work(item)` in it", const_location(name) || path)
        rescue NameError => e
          raise if e.is_a?(NoMethodError)

          raise ContractError.new("--module #{name}: #{path} defines no constant #{name}", path)
        end

        def discover(path)
          found = modules_defining(path) { |m| m.singleton_class.method_defined?(:work) && defined_in?(m.method(:work), path) }
          return found.first if found.size == 1

          if found.size > 1
            list = found.map { |m| "#{OwnCode.name_of(m)} (line #{m.method(:work).source_location.last})" }.join(", ")
            raise ContractError.new("defines work(item) in several modules: #{list}; choose one with --module NAME", path)
          end
          raise missing_work(path)
        end

        def missing_work(path)
          if Object.private_method_defined?(:work) && defined_in?(Object.instance_method(:work), path)
            return ContractError.new("work is defined at the top level; put it in a module as `def self.work(item)` " \
              "(see `ractorbench try --help`)", location(Object.instance_method(:work)))
          end
          owner = modules_defining(path) { |m| m.method_defined?(:work, false) && defined_in?(m.instance_method(:work), path) }.first
          if owner
            owner = OwnCode.name_of(owner)
            return ContractError.new("#{owner}#work is an instance method; ractorbench calls #{owner}.work(item): " \
              "write `def self.work(item)` (or `extend self` in a module)", location(owner.instance_method(:work)))
          end
          ContractError.new("defines no module with a work(item) method; write `module MyWork; def self.work(item) ... end; end` " \
            "(see `ractorbench try --help`)", path)
        end

        def modules_defining(path)
          ObjectSpace.each_object(Module).select do |m|
            !m.singleton_class? && OwnCode.name_of(m) && yield(m)
          rescue
            false
          end.sort_by { |m| OwnCode.name_of(m) }
        end

        def defined_in?(method, path)
          file, = method.source_location
          file && File.expand_path(file) == path
        end

        def const_location(name)
          file, line = Object.const_source_location(name)
          file && "#{file}:#{line}"
        rescue NameError
          nil
        end

        # A method must accept exactly the one argument ractorbench passes.
        def check_arity(mod, name, path)
          method = mod.method(name)
          required = method.parameters.count { |kind, _| kind == :req }
          optional = method.parameters.any? { |kind, _| %i[opt rest].include?(kind) }
          return if required == 1 || (required.zero? && optional)

          raise ContractError.new("#{OwnCode.name_of(mod)}.#{name} takes #{required} required arguments; it must take one " \
            "(#{(name == :work) ? "the item" : "n, the number of items"})", location(method) || path)
        end
      end
    end
  end
end
