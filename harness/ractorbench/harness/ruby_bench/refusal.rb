# frozen_string_literal: true

require_relative "../prepared_run"

module Ractorbench
  module Harness
    module RubyBench
      # Why a benchmark cannot run here, read from what it raised: a "not
      # supported" row names the reason; any other exception is a failure.
      # A library the Ruby cannot load, a Ractor API this Ruby lacks
      # (Ractor#value and #join are Ruby 4.0's; 3.x has take), or a file
      # missing from the checkout is a fact about this Ruby or checkout, not
      # a bug in the benchmark.
      module Refusal
        RACTOR_API = %i[value join].freeze

        module_function

        # [reason, scope] (Unsupported's scope: nil for what this Ruby
        # lacks, "workload" for what the checkout lacks), or nil when the
        # error is a failure. checkout: its folder, to name a file within it.
        def of(error, checkout = nil)
          case error
          when NoMethodError then (reason = ractor_api(error)) && [reason, nil]
          when LoadError then [library(error), nil]
          when Errno::ENOENT then [missing_file(error, checkout), "workload"]
          end
        end

        def raise!(reason, scope)
          raise Unsupported.new(reason, scope: scope)
        end

        def ractor_api(error)
          return nil unless RACTOR_API.include?(error.name) && defined?(::Ractor) && error.receiver.is_a?(::Ractor)

          "the benchmark calls Ractor##{error.name}, which this Ruby's Ractor lacks (Ruby 4.0 added #value and #join; 3.x has take)"
        rescue ArgumentError # a NoMethodError made without a receiver
          nil
        end

        def library(error)
          "needs #{error.path || "a library"}, which this Ruby cannot load (#{error.message.lines.first.to_s.strip})"
        end

        # ENOENT's message ends with the path it was given ("... @ rb_sysopen - data.bin").
        def missing_file(error, checkout)
          given = error.message[/ - (.+)\z/m, 1]
          return "needs a file that is missing (#{error.message})" unless given

          path = File.expand_path(given)
          inside = checkout && path.start_with?("#{checkout}/")
          inside ? "needs #{path.delete_prefix("#{checkout}/")}, which is missing from the checkout" : "needs #{path}, which is missing"
        end
      end
    end
  end
end
