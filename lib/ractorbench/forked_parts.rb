# frozen_string_literal: true

module Ractorbench
  # Work in parts that share nothing, each part but the first done by a
  # forked process that hands its answer back through a pipe (Marshal), the
  # first done here meanwhile: the same answers as doing every part here, in
  # a fraction of the time on a machine with cores to spare. A part whose
  # process fails (killed, out of memory, fork refused) is done here after
  # the others: it costs time, never an answer. Used for a report's rows
  # when many of them resample their runs (Analysis::Rows).
  module ForkedParts
    module_function

    # The block's answer for each part, in the parts' order (an answer is
    # never nil or false: those mean a child that failed). Interrupted
    # (Ctrl-C, SIGTERM, an error here), it ends every child still working
    # before it returns: none works on for a caller that is gone.
    def map(parts, &work) = Started.new(parts, work).answers

    # Parts whose children are at work.
    class Started
      def initialize(parts, work)
        @parts = parts
        @work = work
        @forked = parts.drop(1)
        @children = []
        @forked.each { |part| @children << ForkedParts.spawn(part, &work) }
      rescue Exception # rubocop:disable Lint/RescueException -- interrupted while forking: none is left working
        abandon
        raise
      end

      # Every part's answer, in the parts' order (see ForkedParts.map).
      def answers
        mine = [@work.call(@parts.first)]
        answers = []
        bytes = Hash.new { |h, i| h[i] = "".b }
        chunk = "".b # one buffer for every read: half a big file's table is 28 reads of a megabyte
        # Every pipe drained as its child writes, all of them at once, and an
        # answer loaded as soon as it is whole: the children write side by
        # side and end sooner (their memory with them), and loading one
        # answer overlaps another child's work, whatever order they end in.
        while (ready = ForkedParts.readable(@children))
          ready.each do |i|
            pid, io = @children[i]
            read = pid && io.read_nonblock(CHUNK, chunk, exception: false)
            next if read == :wait_readable
            next bytes[i] << read if read

            answers[i] = ForkedParts.finish(pid, io, bytes.delete(i))
            @children[i] = nil # reaped
          end
        end
        mine + @forked.each_with_index.map { |part, j| answers[j] || @work.call(part) }
      ensure
        abandon
      end

      # Every child still working ended.
      def abandon
        @children.compact.each { |pid, io| ForkedParts.abandon(pid, io) }
        @children.clear
      end
    end

    def abandon(pid, io)
      io&.close
      return unless pid

      Process.kill(:KILL, pid)
      Process.wait(pid)
    rescue SystemCallError
      nil
    end

    def spawn(part)
      reader, writer = IO.pipe
      pid = fork do
        reader.close
        Marshal.dump(yield(part), writer)
        writer.close
        exit!(0)
      rescue Exception # rubocop:disable Lint/RescueException -- a child must never run the parent's at_exit code
        exit!(1)
      end
      writer.close
      [pid, reader]
    rescue NotImplementedError, SystemCallError # no fork here, or out of processes
      reader&.close
      writer&.close unless writer&.closed?
      [nil, nil]
    end

    CHUNK = 1 << 20

    # The indexes of children whose pipes have something to read (or who
    # ended), nil when none is left; a child never forked (fork refused)
    # is ready at once.
    def readable(children)
      waiting = children.each_index.select { |i| children[i] }
      return nil if waiting.empty?

      unforked = waiting.select { |i| children[i].first.nil? }
      return unforked unless unforked.empty?

      ready, = IO.select(waiting.map { |i| children[i].last })
      ready.map { |io| children.index { |child| child&.last.equal?(io) } }
    end

    # The answer in a child's bytes (nil if it failed: no bytes, or not
    # whole), once the child has ended. Loaded from the bytes read whole:
    # loaded from the pipe a few bytes at a time, the answer's Strings were
    # strewn among the reads' garbage.
    def finish(pid, io, bytes)
      io&.close
      Process.wait(pid) if pid
      Marshal.load(bytes) if bytes # rubocop:disable Security/MarshalLoad -- our own child's
    rescue TypeError, ArgumentError # a child that died mid-answer
      nil
    ensure
      bytes&.clear # handed back now, not at the next GC: tens of megabytes while the next child's come in
    end
  end
end
