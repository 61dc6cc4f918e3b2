# frozen_string_literal: true

require_relative "fields"
require_relative "high_descriptor"
require_relative "closed_by_run"

module Ractorbench
  module Harness
    # The child's side of the driver/child boundary, the one place that opens
    # it: the spec arrives as one Marshal dump on stdin, records go back as
    # Marshal dumps on file descriptor 3 (RACTORBENCH_RESULT_FD), never on
    # stdout, because workloads may print. Marshal, not JSON: it is in core
    # Ruby, and requiring json costs every run ~8 ms of start-up. The driver
    # decodes only plain data (Measure::ResultChannel), so a record is made
    # plain here: strings, numbers, true/false/nil, arrays and string-keyed
    # hashes; anything else travels as its #inspect.
    module Channel
      FD = Fields::RESULT_FD
      # The key of the mark a run sends when its measured part has ended
      # (Measure::Launcher then gives it a second time limit for the rest).
      MEASURED = Fields::MEASURED
      DEPTH = 32
      class Lost < StandardError; end

      module_function

      # The spec the driver wrote on stdin (nil when there was none). Stdin
      # then reads as /dev/null, as it did before, for whatever the run starts.
      def spec
        data = $stdin.binmode.read
        $stdin.reopen(File::NULL)
        data.empty? ? nil : Marshal.load(data) # rubocop:disable Security/MarshalLoad -- our own driver's spec
      end

      # The channel as an IO, opened once, before any of the run's code, and
      # copied out of reach of code that closes descriptors by number
      # (HighDescriptor). fd 3 stays open as it was, so what a run writes on
      # it still reaches the driver as garbage on the channel. Both closed in
      # every program the run execs, and by a forked worker
      # (Harness.after_fork) so the driver never waits on them.
      def io
        @io ||= begin
          given = IO.for_fd(Integer(ENV.fetch(FD, "3")), "wb")
          given.close_on_exec = true
          HighDescriptor.move(given, "wb", keep: true).tap do |out|
            out.sync = true
            @identity = identity(out)
            @fileno = out.fileno
            @copies = [out, given].uniq
            Harness.close_result_channel = -> { close_copies } if Harness.respond_to?(:close_result_channel=)
          end
        end
      end

      # The channel's descriptors that still hold it: the run's code may have
      # closed fd 3, and what it opened since may be there now.
      def close_copies
        @copies.each do |copy|
          copy.close if !copy.closed? && identity(copy) == @identity
        rescue IOError, SystemCallError
          nil
        end
      end

      # One record, written in one call so that records from two processes
      # never interleave inside each other. A channel the run's code closed
      # (every IO it found, say) or whose descriptor now holds something else
      # is gone: said in one line, and the process ends (ClosedByRun).
      def write(record)
        raise Lost, "it now holds another file" unless identity(io) == @identity

        io.write(Marshal.dump(plain(record)))
      rescue Lost, IOError, SystemCallError => e
        ClosedByRun.stop("ractorbench's result channel (file descriptor #{@fileno}) before its record was sent", e)
      end

      # What a descriptor holds, from the descriptor itself (an fstat: no
      # descriptor of its own, unlike a look in /proc).
      def identity(out) = out.stat.then { |stat| [stat.dev, stat.ino] }

      def plain(value, depth = 0)
        return value.inspect if depth > DEPTH

        case value
        when nil, true, false, Integer, Float then value
        when String then utf8_or_bytes(value)
        when Symbol then value.to_s
        when Array then value.map { |v| plain(v, depth + 1) }
        when Hash then value.each_with_object({}) { |(k, v), h| h[k.is_a?(String) ? k : k.to_s] = plain(v, depth + 1) }
        else value.inspect
        end
      rescue Exception # rubocop:disable Lint/RescueException -- an #inspect that raises must not lose the record
        "(an unprintable #{value.class})"
      end

      # The driver reads every string as UTF-8: text in another encoding is
      # converted; bytes stay bytes (the driver escapes what is not UTF-8).
      def utf8_or_bytes(text)
        return text if text.encoding == Encoding::UTF_8 || text.encoding == Encoding::BINARY || text.ascii_only?

        text.encode(Encoding::UTF_8)
      rescue EncodingError
        text.b
      end
    end
  end
end
