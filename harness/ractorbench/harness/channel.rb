# frozen_string_literal: true

require_relative "fields"

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

      module_function

      # The spec the driver wrote on stdin (nil when there was none). Stdin
      # then reads as /dev/null, as it did before, for whatever the run starts.
      def spec
        data = $stdin.binmode.read
        $stdin.reopen(File::NULL)
        data.empty? ? nil : Marshal.load(data) # rubocop:disable Security/MarshalLoad -- our own driver's spec
      end

      # fd 3 as an IO, opened once; closed in every program the run execs, and
      # by a forked worker (Harness.after_fork) so the driver never waits on it.
      def io
        @io ||= IO.for_fd(Integer(ENV.fetch(FD, "3")), "w", autoclose: false).tap do |out|
          out.binmode
          out.sync = true
          out.close_on_exec = true
          Harness.result_io = out if Harness.respond_to?(:result_io=)
        end
      end

      # One record, written in one call so that records from two processes
      # never interleave inside each other.
      def write(record)
        io.write(Marshal.dump(plain(record)))
      end

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
