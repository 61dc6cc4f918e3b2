# frozen_string_literal: true

module Ractorbench
  # YJIT turned on for a process of the tool's own that runs one loop a
  # long while: a big file's forked reader folds half a million lines, and
  # YJIT took a fifth off its time on Ruby 4.0 for 5 MB of memory. Only on
  # a Ruby that can turn it on once running (RubyVM::YJIT.enable, 3.3 and
  # later, built with YJIT) and where it is not on already; never in the
  # process that measures or reports: what a report says does not change,
  # only how fast the file is read.
  module OwnJit
    module_function

    # Whether YJIT is on now.
    def enable
      jit = defined?(RubyVM::YJIT) && RubyVM::YJIT
      jit.enable if jit.respond_to?(:enable) && !jit.enabled?
      on?
    end

    def on? = (defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?) || false
  end
end
