# frozen_string_literal: true

module Ractorbench
  module Harness
    # What an exception says, as a failed run reports it. The exception is
    # the user's: its #message may raise, return something that is not a
    # String, or hold 20 MB; its class may override `name`. None of that may
    # stop the report (a worker that dies while describing its error leaves
    # the run waiting for ever) nor make it too big to send: the text is
    # bounded, the class named by Module#name itself. Safe inside a ractor
    # (no unshareable constant).
    module ErrorText
      LIMIT = 4096
      # Room beyond LIMIT for what wraps a text already cut (a worker's error
      # named again by its run): the note saying how much there was stays.
      MARGIN = 512

      module_function

      # "ClassName: message", never raising, at most about LIMIT bytes.
      def of(error) = "#{class_name(error)}: #{message(error)}"

      # "ClassName: the message's first line", as valid UTF-8: for a sentence.
      def line(error) = "#{class_name(error)}: #{first_line(error)}"

      def first_line(error) = text(error).lines.first.to_s.strip

      def class_name(error)
        Module.instance_method(:name).bind_call(Kernel.instance_method(:class).bind_call(error)) || "an anonymous exception"
      rescue Exception # rubocop:disable Lint/RescueException -- the user's exception may raise anything
        "an exception"
      end

      # Its message, as bytes (the driver makes them valid UTF-8), cut to
      # LIMIT bytes with the whole size said.
      def message(error)
        text = readable(error)
        text = text.encode(Encoding::UTF_8, invalid: :replace, undef: :replace) unless text.encoding.ascii_compatible?
        bounded(text.b)
      rescue Exception # rubocop:disable Lint/RescueException -- the run's failure must still be reported
        "(its message could not be read)"
      end

      # #message, else Exception#to_s itself (the text given to raise), else nothing.
      def readable(error)
        text = error.message
        text = text.to_s unless text.is_a?(String)
        text.is_a?(String) ? text : Kernel.instance_method(:inspect).bind_call(text)
      rescue Exception # rubocop:disable Lint/RescueException -- its #message raised: the text raise was given
        "#{Exception.instance_method(:to_s).bind_call(error)} (its #message raised)"
      end

      # Its message in full (bounded) as valid UTF-8.
      def text(error) = message(error).dup.force_encoding(Encoding::UTF_8).scrub

      # Its first `count` frames (the user may override #backtrace too),
      # each bounded; [] when they cannot be read.
      def backtrace(error, count)
        lines = Exception.instance_method(:backtrace).bind_call(error)
        Array(lines).first(count).map { |line| bounded(line.to_s.b).force_encoding(Encoding::UTF_8).scrub }
      rescue Exception # rubocop:disable Lint/RescueException -- the failure is reported without them
        []
      end

      def bounded(bytes)
        return bytes if bytes.bytesize <= LIMIT + MARGIN

        "#{bytes.byteslice(0, LIMIT).scrub("")}... (#{bytes.bytesize} bytes in all; the first #{LIMIT} shown)".b
      end
    end
  end
end
