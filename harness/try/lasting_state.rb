# frozen_string_literal: true

require "digest"

module Ractorbench
  module Harness
    module Try
      # State that outlives a call of `work`, found by running it: what the
      # module (and every module or class among its constants) holds in its
      # instance variables, class variables and constants' contents, and
      # what global variables hold, before and after work ran on the check's
      # items in this process. Whatever changed is state a forked worker or a
      # ractor would change in its own copy, never in the caller's: a memo
      # that no longer warms, a counter that stays at 0.
      class LastingState
        # Globals Ruby itself changes (the last match, the last line read,
        # $stdout...) or that load code ($LOAD_PATH): not the work's state.
        RUBYS_OWN = /\A\$(?:[^A-Za-z_]|-|_\z|LOAD|LOADED_FEATURES|PROGRAM_NAME|VERBOSE|DEBUG|FILENAME|stdout|stderr|stdin|SAFE|KCODE)/
        # How deep to follow constants that name modules: a module's own
        # modules and theirs.
        DEPTH = 3
        # At most this many changes named: the first ones tell the story.
        MOST = 8

        def initialize(target, file)
          @target = target
          @file = file
          @lines = File.readlines(file) rescue [] # rubocop:disable Style/RescueModifier -- no source, no line numbers
        end

        def snapshot
          state = {}
          holders.each do |holder|
            holder.instance_variables.each { |name| state[["instance variable", holder, name]] = fingerprint(holder.instance_variable_get(name)) }
            holder.class_variables(false).each { |name| state[["class variable", holder, name]] = fingerprint(holder.class_variable_get(name)) }
            holder.constants(false).each do |name|
              next unless holder.const_defined?(name, false) && !holder.autoload?(name)

              value = holder.const_get(name, false)
              state[["constant", holder, name]] = fingerprint(value) unless value.is_a?(Module)
            end
          end
          global_variables.grep_v(RUBYS_OWN).each { |name| state[["global variable", nil, name]] = fingerprint(global(name)) }
          state
        end

        # What changed from before to now, each {"kind", "name", "change",
        # "where"} for a person: "@memo of Tally", "a Hash: 0 → 12 entries".
        def changes(before, after = snapshot)
          keys = (after.keys | before.keys).reject { |key| before[key]&.first == after[key]&.first }
          keys.first(MOST).map do |kind, holder, name|
            {"kind" => kind, "name" => shown_name(kind, holder, name),
             "change" => change(before[[kind, holder, name]], after[[kind, holder, name]]),
             "where" => where(kind, holder, name)}
          end
        end

        private

        # The module and the modules and classes it holds as constants,
        # each once, defined in Ruby (not a library's).
        def holders
          seen = {}
          queue = [[@target, 0]]
          until queue.empty?
            mod, depth = queue.shift
            next if seen.key?(mod)

            seen[mod] = true
            next if depth >= DEPTH

            mod.constants(false).each do |name|
              next unless mod.const_defined?(name, false) && !mod.autoload?(name)

              value = mod.const_get(name, false)
              queue << [value, depth + 1] if value.is_a?(Module) && value.name&.start_with?("#{@target.name}::")
            end
          end
          seen.keys
        end

        # [digest of the contents, a short description]: Marshal's form where
        # it has one, else inspect.
        def fingerprint(value)
          text = begin
            Marshal.dump(value)
          rescue TypeError, ArgumentError
            value.inspect
          end
          [Digest::SHA256.digest(text), describe(value)]
        rescue => e
          [e.class.name, describe(value)]
        end

        def describe(value)
          case value
          when Hash then "a Hash of #{value.size}"
          when Array then "an Array of #{value.size}"
          when String then "a String of #{value.size} characters"
          when Integer, Float, Symbol, true, false then value.inspect
          when nil then "nil"
          else "#{value.class.name.to_s.match?(/\A[AEIOU]/) ? "an" : "a"} #{value.class.name}"
          end
        end

        # "0 → 9", "a Hash, 0 → 8 entries", "unset → 1".
        def change(before, after)
          return "unset → #{after.last}" unless before
          return "#{before.last} → removed" unless after

          was, now = before.last, after.last
          container = was[/\Aan? (?:Hash|Array) of /]
          return "#{container.delete_suffix(" of ")}, #{was.delete_prefix(container)} → #{now.delete_prefix(container)} entries" if container && now.start_with?(container)

          "#{was} → #{now}"
        end

        def global(name) = eval(name.to_s, TOPLEVEL_BINDING, __FILE__, __LINE__) # rubocop:disable Security/Eval -- a global's name, from global_variables

        def shown_name(kind, holder, name)
          case kind
          when "constant" then "#{holder.name}::#{name}"
          when "global variable" then name.to_s
          else "#{name} of #{holder.name}"
          end
        end

        # A constant where Ruby says it was defined; any other name where
        # the file first changes it (else first names it), else the module.
        def where(kind, holder, name)
          if kind == "constant" && holder.respond_to?(:const_source_location)
            file, line = holder.const_source_location(name)
            return "#{file}:#{line}" if file
          end
          word = Regexp.escape(name.to_s)
          changed = /#{word}(?![\w@])\s*(?:\[[^\]]*\]\s*)?(?:\|\|=|&&=|[-+*\/]=|=(?![=~>])|<<)/
          index = @lines.index { |l| l.match?(changed) } || @lines.index { |l| l.match?(/#{word}(?![\w@])/) }
          return "#{@file}:#{index + 1}" if index

          file, line = Object.const_source_location(@target.name) if Object.respond_to?(:const_source_location)
          file && "#{file}:#{line}"
        end
      end
    end
  end
end
