# frozen_string_literal: true

require "digest/sha1"

module Ractorbench
  module Harness
    module Try
      # What every model must agree on: each item's result, in item order.
      # Results are compared by content (their Marshal form), so a result that
      # crossed a pipe or a ractor boundary as a copy still matches.
      module ResultDigest
        module_function

        def call(indexed_results)
          sha = Digest::SHA1.new
          indexed_results.sort_by(&:first).each { |index, result| sha << "#{index}:" << fingerprint(result) << "\n" }
          sha.base64digest
        end

        # Marshal where it can, else `inspect` with object addresses masked
        # (they differ between processes, the content does not).
        def fingerprint(object)
          Marshal.dump(object)
        rescue TypeError
          object.inspect.gsub(/0x\h+/, "0x")
        end
      end
    end
  end
end
