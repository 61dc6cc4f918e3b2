# frozen_string_literal: true

require_relative "output_path"
require_relative "errors"

module Ractorbench
  # Writes a whole file or nothing, by the output path rules (OutputPath):
  # a report is never left half-written, and never replaces anything but a
  # regular file, and that only with --force.
  module AtomicFile
    module_function

    def write(path, text, force: false)
      OutputPath.check!(path, force: force)
      temp, file = OutputPath.temporary(path)
      file.write(text)
      file.fsync
      file.close
      OutputPath.place(temp, path, force: force)
    rescue SystemCallError, IOError => e
      OutputPath.discard(file, temp)
      raise UsageError, "cannot write #{path}: #{OutputPath.reason(e, path)}"
    end
  end
end
