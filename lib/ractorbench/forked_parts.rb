# frozen_string_literal: true

module Ractorbench
  # Work in parts that share nothing, each part but the first done by a
  # forked process that hands its answer back through a pipe (Marshal), the
  # first done here meanwhile: the same answers as doing every part here, in
  # a fraction of the time on a machine with cores to spare. A part whose
  # process fails (killed, out of memory, fork refused) is done here after
  # the others: it costs time, never an answer. Used for reading a big
  # results file (Store::SplitRead), for a report's rows of many runs
  # (Reports::Parts::Rows) and for a big text report's tables (Reports::Text).
  module ForkedParts
    module_function

    # The block's answer for each part, in the parts' order (an answer is
    # never nil or false: those mean a child that failed).
    def map(parts, &work)
      children = parts.drop(1).map { |part| spawn(part, &work) }
      mine = work.call(parts.first)
      [mine] + children.zip(parts.drop(1)).map { |(pid, io), part| collect(pid, io) || work.call(part) }
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

    def collect(pid, io)
      return nil unless pid

      Marshal.load(io) # rubocop:disable Security/MarshalLoad -- our own child's
    rescue IOError, TypeError, ArgumentError # EOFError too: a child that died
      nil
    ensure
      io&.close
      Process.wait(pid) if pid
    end
  end
end
