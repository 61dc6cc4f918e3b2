# frozen_string_literal: true

module Ractorbench
  module Harness
    module RubyBench
      # A worker's own garbage collections, where it has its own: a forked
      # worker (and serial's main, one worker at a time) is a whole process;
      # a ractor has its own only where GC is per ractor (Ruby 4.1: GC.stat
      # takes scope:, read as ruby-bench's newer harness reads it). Threads,
      # and ractors of a Ruby whose GC is one for the process, share the
      # process's, which the run records as it always does.
      module WorkerGC
        module_function

        # Is GC.stat scoped (feature-detected, never by version)?
        def per_ractor?
          GC.method(:stat).parameters.any? { |_, name| name == :scope }
        end

        # "process", "ractor", or nil: whose GC a worker of this crew reads.
        def scope(crew_kind)
          case crew_kind
          when :serial, :process then "process"
          when :ractor then per_ractor? ? "ractor" : nil
          end
        end

        # [collections, milliseconds] so far, or nil without a scope.
        def read(scope)
          return nil unless scope

          stat = (scope == "ractor") ? GC.stat(scope: :ractor) : GC.stat
          [stat[:count], stat[:time]]
        end

        # What happened between two readings.
        def between(before, after)
          before && after && [after[0] - before[0], after[1] && before[1] && after[1] - before[1]]
        end
      end
    end
  end
end
