# frozen_string_literal: true

require_relative "libc"

module Ractorbench
  # Memory a big read freed, handed back to the system. A process that
  # folds a million run lines frees most of what it allocated, but glibc's
  # malloc keeps freed pages for itself unless asked (malloc_trim), and Ruby
  # keeps the object pages it grew to: a reader of half a big file held
  # 220 MB for 50 MB of runs, and a process forked from such a heap copied
  # it page by page as it allocated into the holes. Where there is no
  # malloc_trim (another libc, another allocator), nothing is asked.
  module SpareMemory
    module_function

    # A full GC, and what it freed returned: between the stages of a big
    # read, when what a stage made in passing is garbage.
    def release
      GC.start
      trim
    end

    # After a full GC: the pages malloc holds free, returned.
    def trim
      @trim = LibC.function("malloc_trim", [:size_t], :int) || false if @trim.nil?
      @trim&.call(0)
      nil
    end

    # Before forking from a big heap, or handing a big answer over: a full
    # GC and free pages returned; on 3.3 and later, Process.warmup, which
    # also moves the objects together, so a child's allocations land in
    # pages of its own rather than in the holes of shared ones, and the
    # emptied pages go back (a big file's reader: 14 MB on Ruby 4.0, in
    # 0.07 s). No GC.compact before 3.3: Ruby 3.1's crashed there once
    # under CI ([BUG] Segmentation fault in GC, a test reading a big file
    # in two readers).
    def settle
      return Process.warmup if Process.respond_to?(:warmup)

      release
    end

    # Every full GC since the last call trimmed after (cheap: called a
    # megabyte of reading at a time, it trims a few dozen times a file).
    def after_full_gc
      count = GC.stat(:major_gc_count)
      return if count == @major

      @major = count
      trim
    end
  end
end
