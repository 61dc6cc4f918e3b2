# frozen_string_literal: true

require_relative "user_code"

module Ractorbench
  module Harness
    module Try
      # Code loaded on first use: a `require` inside work, an autoload, or a
      # library whose const_missing requires a file (Digest::SHA256). Before
      # Ruby 3.4 (by feature: it is what the error says) a ractor other than
      # the main one cannot load code, so the first use must happen at load
      # time, in the main ractor. This finds what to load and loads it.
      module LazyLoad
        LOADERS = /in [`'](?:[\w:]+[#.])?(?:require|require_relative|load|const_missing|autoload)'/
        REQUIRE = /\brequire(_relative)?[\s(]+["']([^"']+)["']/
        CONSTANT_PATH = /(?<![\w:@$])(?:::)?[A-Z]\w*(?:::[A-Z]\w*)*/

        module_function

        # The error is code being loaded inside the ractor.
        def error?(error)
          message = error["message"].to_s
          return true if error["class"] == "Ractor::UnsafeError" && message.include?("autoload")
          return false unless error["class"] == "Ractor::IsolationError"

          loading_frames(error["backtrace"]).any?
        end

        # The frames between the error and the user's code that load code:
        # "digest.rb:31 (const_missing)".
        def loading_frames(backtrace)
          frames = Array(backtrace).take_while { |f| !user_frame?(f) }
          frames.select { |f| f.match?(LOADERS) }
        end

        def user_frame?(text)
          frame = UserCode.frames([text]).first
          frame && UserCode.user?(frame.path)
        end

        # {"autoload" => "Auto", "loader" => "/usr/lib/ruby/3.1.0/digest.rb:31 in const_missing",
        #  "candidates" => ["Digest::SHA256"], "require" => "set" | nil}
        def facts(error, source)
          loader = loading_frames(error["backtrace"]).reject { |f| f.include?("kernel_require") }.first
          frame = loader && UserCode.frames([loader]).first
          {"autoload" => error["message"].to_s[/not supported \(([\w:]+)\)/, 1],
           "loader" => frame && "#{frame.path}:#{frame.line}#{" in #{frame.label.split(/[#.]/).last}" if frame.label}",
           "require" => source.to_s[REQUIRE, 2], "require_relative" => source.to_s[REQUIRE, 1] ? true : nil,
           "candidates" => source.to_s.gsub(/(["']).*?\1/, "").scan(CONSTANT_PATH).map { |c| c.delete_prefix("::") }.uniq}.compact
        end

        # Loads in this (the main) ractor what the failing line needs; the
        # remedy applied, or nil when there was nothing left to load.
        # where: the user's frame (for require_relative).
        def load_now(facts, where)
          if facts["require"]
            feature = facts["require"]
            path = (facts["require_relative"] && where) ? File.expand_path(feature, File.dirname(where.path)) : feature
            return {"kind" => "require", "feature" => feature, "relative" => facts["require_relative"]} if require(path)
          end
          names = [facts["autoload"], *facts["candidates"]].compact.uniq.select { |name| unloaded?(name) }
          touched = names.select { |name| touch(name) }
          touched.empty? ? nil : {"kind" => "load", "constants" => touched}
        end

        # A constant not loaded yet: autoload pending, or not defined at all
        # (a const_missing hook defines it on first use).
        def unloaded?(path)
          scope = Object
          path.split("::").each do |name|
            return true if scope.autoload?(name)
            return true unless scope.const_defined?(name)

            scope = scope.const_get(name)
            return false unless scope.is_a?(Module)
          end
          false
        rescue NameError
          true
        end

        def touch(path)
          Object.const_get(path)
          true
        rescue NameError, LoadError
          false
        end
      end
    end
  end
end
