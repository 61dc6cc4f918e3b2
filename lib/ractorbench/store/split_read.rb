# frozen_string_literal: true

require_relative "line_range"
require_relative "bounded_lines"
require_relative "../measure/machine"
require_relative "../forked_parts"
require_relative "../spare_memory"

module Ractorbench
  module Store
    # A big results file read by several processes at once (ForkedParts):
    # its run lines cut into stretches at line starts, each read into a
    # RunTable of its own. Reading a million runs is work that shares
    # nothing: the same answer as reading alone, in a fraction of the time on
    # a machine with cores to spare. Without fork, or for a file under PIECE
    # bytes, one process reads.
    module SplitRead
      PIECE = 32 * 1024 * 1024

      # A stretch read by this process, when its answers are asked for.
      Alone = Struct.new(:read) do
        def answers = read.call
        def abandon = nil
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
      # Its answers: [LineRange::Result] of the stretches, in file order;
      # abandon: every reader still at work ended.
      def start(path, from, to, source, readers)
        ranges = ranges(path, from, to, readers)
        return Alone.new(-> { [LineRange.read(path, *ranges.first, source, to)] }) if ranges.size == 1

        # Forked before the header is read (Store.read): a big header, a
        # line of a hundred megabytes, is never the readers' to share.
        # Every stretch read by a process of its own, this one only joining
        # their tables: reading leaves a heap grown and holed by a million
        # lines' garbage, and this process holds every run for the whole
        # report. Each reader's garbage freed before its table goes down the pipe.
        ForkedParts.start(ranges, here: false) do |range|
          LineRange.read(path, *range, source, to, trim: false).tap { SpareMemory.release }
        end
      end

      # [from, to] pairs that cut from...to at line starts.
      def ranges(path, from, to, readers)
        return [[from, to]] if readers <= 1 || to - from < readers

        # Each cut at the end of the line its guess fell in.
        cuts = File.open(path, "rb") do |file|
          (1...readers).map { |k| BoundedLines.next_line_start(file, from + (to - from) * k / readers, to) }
        end
        ([from] + cuts + [to]).each_cons(2).reject { |a, b| a >= b }
      end
    end
  end
end
