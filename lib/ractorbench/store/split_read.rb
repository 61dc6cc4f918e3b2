# frozen_string_literal: true

require_relative "line_range"
require_relative "../measure/machine"

module Ractorbench
  module Store
    # A big results file read by several processes at once: its run lines
    # cut into stretches at line starts, each stretch but the first read by a
    # forked reader that hands its RunTable back through a pipe (Marshal),
    # the first read here meanwhile. Parsing JSON is most of what reading a
    # million runs costs, and it is work that shares nothing: the same answer
    # as reading alone, in a fraction of the time on a machine with cores to
    # spare. Without fork, or for a file under PIECE bytes, one process reads.
    module SplitRead
      PIECE = 32 * 1024 * 1024
      MAX_READERS = 8

      module_function

      # How many readers for size bytes: RACTORBENCH_READERS or requested
      # when given, else one per PIECE, at most one per usable core.
      def readers(size, requested = nil)
        requested ||= Integer(ENV["RACTORBENCH_READERS"], exception: false)
        wanted = requested || [size / PIECE, Measure::Machine.usable_cores, MAX_READERS].min
        Process.respond_to?(:fork) ? wanted.clamp(1, MAX_READERS) : 1
      end

      # [LineRange::Result] of the stretches of from...to, in file order.
      def read(path, from, to, source, readers)
        ranges = ranges(path, from, to, readers)
        children = ranges.drop(1).map { |range| spawn_reader(path, range, source, to) }
        mine = LineRange.read(path, *ranges.first, source, to)
        [mine] + children.zip(ranges.drop(1)).map do |(pid, io), range|
          # A reader that died (killed, out of memory) costs time, not runs.
          collect(pid, io) || LineRange.read(path, *range, source, to)
        end
      end

      # [from, to] pairs that cut from...to at line starts.
      def ranges(path, from, to, readers)
        return [[from, to]] if readers <= 1 || to - from < readers

        cuts = File.open(path, "rb") do |file|
          (1...readers).map do |k|
            file.seek(from + (to - from) * k / readers)
            file.gets # to the end of the line the guess fell in
            [file.pos, to].min
          end
        end
        ([from] + cuts + [to]).each_cons(2).reject { |a, b| a >= b }
      end

      def spawn_reader(path, range, source, file_size)
        reader, writer = IO.pipe
        pid = fork do
          reader.close
          Marshal.dump(LineRange.read(path, *range, source, file_size), writer)
          writer.close
          exit!(0)
        rescue Exception # rubocop:disable Lint/RescueException -- a reader must never run the parent's at_exit code
          exit!(1)
        end
        writer.close
        [pid, reader]
      rescue NotImplementedError, SystemCallError # no fork here, or out of processes
        [nil, nil]
      end

      def collect(pid, io)
        return nil unless pid

        Marshal.load(io)
      rescue IOError, TypeError, ArgumentError # EOFError too: a reader that died
        nil
      ensure
        io&.close
        Process.wait(pid) if pid
      end
    end
  end
end
