# frozen_string_literal: true

require_relative "line_range"
require_relative "share"
require_relative "../measure/machine"
require_relative "../forked_parts"
require_relative "../spare_memory"
require_relative "../own_jit"

module Ractorbench
  module Store
    # A big results file read by several processes at once (ForkedParts),
    # each reading every line and folding those of its Share of the
    # configurations into a RunTable of its own. Reading a million runs is
    # work that shares nothing: the same answer as reading alone, in a
    # fraction of the time on a machine with cores to spare. Without fork,
    # or for a file under PIECE bytes, one process reads.
    module SplitRead
      PIECE = 32 * 1024 * 1024

      # The file read by this process alone, when its answers are asked for.
      Alone = Struct.new(:read) do
        def answers = read.call
        def abandon = nil
        def alone = read
      end
      MAX_READERS = 8

      module_function

      # How many readers for size bytes: requested or RACTORBENCH_READERS
      # when given, else one per PIECE, at most one per usable core.
      def readers(size, requested = nil)
        return 1 unless Process.respond_to?(:fork)

        (requested || chosen || [size / PIECE, Measure::Machine.usable_cores].min).clamp(1, MAX_READERS)
      end

      # How many processes share other such work (a report's rows):
      # RACTORBENCH_READERS when set, else one per usable core.
      def processes
        return 1 unless Process.respond_to?(:fork)

        (chosen || Measure::Machine.usable_cores).clamp(1, MAX_READERS)
      end

      def chosen = Integer(ENV["RACTORBENCH_READERS"], exception: false)

      # The reading of from...to begun: forked readers are at work when it
      # returns, while a lone reader reads when its answers are asked for.
      # Its answers: [LineRange::Result], one a reader; abandon: every reader
      # still at work ended; alone: [LineRange::Result] of the whole read
      # here, for when the readers' tables cannot be merged (RunTable#merge).
      def start(path, from, to, source, readers)
        alone = -> { [LineRange.read(path, from, to, source, to)] }
        return Alone.new(alone) if readers <= 1

        # Forked before the header is read (Store.read): a big header, a
        # line of a hundred megabytes, is never the readers' to share.
        # Every share read by a process of its own, this one only merging
        # their tables: reading leaves a heap grown and holed by a million
        # lines' garbage, and this process holds every run for the whole
        # report. Each reader's garbage freed, its heap packed, before its
        # table goes down the pipe, beside the other reader's. A reader runs
        # with YJIT where Ruby can turn it on (OwnJit).
        started = ForkedParts.start((0...readers).map { |k| Share.new(k, readers) }, here: false) do |share|
          OwnJit.enable
          LineRange.read(path, from, to, source, to, trim: false, share: share).tap { SpareMemory.settle }
        end
        Shared.new(started, alone)
      end

      # Forked readers at work, each on a share of the configurations.
      Shared = Struct.new(:started, :alone) do
        def answers = started.answers
        def abandon = started.abandon
      end
    end
  end
end
