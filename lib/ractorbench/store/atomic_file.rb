# frozen_string_literal: true

require_relative "../errors"

module Ractorbench
  module Store
    # Writes a whole file or nothing: a report is never left half-written.
    module Store::AtomicFile
      module_function

      def write(path, text)
        temp = "#{path}.tmp-#{Process.pid}"
        File.write(temp, text)
        File.rename(temp, path)
      rescue SystemCallError => e
        File.delete(temp) if temp && File.exist?(temp)
        raise UsageError, "cannot write #{path}: #{e.message.sub(/ @ .*/, "")}"
      end
    end
  end
end
