# frozen_string_literal: true

require "delegate"

module Ractorbench
  module CLI
    # Standard streams ractorbench may be given closed (2>&-) or unwritable
    # (2>/dev/full): the collection runs all the same, and its runs record
    # their reasons in the results file, where they can be read later.
    module Streams
      # Errors of a stream that cannot be written but that no reader left:
      # a full disk, a bad descriptor. What is said is dropped.
      LOST = [Errno::ENOSPC, Errno::EDQUOT, Errno::EFBIG, Errno::EBADF, Errno::EINVAL].freeze

      module_function

      # A closed descriptor 0, 1 or 2 would be the next file ractorbench
      # opens: a results file written to as standard error. /dev/null takes
      # its place first.
      def open!
        [[$stdin, "r"], [$stdout, "w"], [$stderr, "w"]].each_with_index do |(io, mode), fd|
          next if open?(fd)

          io.reopen(File.open(File::NULL, mode))
        end
      end

      def open?(fd)
        IO.for_fd(fd, autoclose: false).stat
        true
      rescue Errno::EBADF
        false
      end

      # err, writing what it can and dropping what it cannot (LOST): progress
      # and notes, never the output a command exists to write.
      def forgiving(io) = Forgiving.new(io)

      # An IO whose writes never raise LOST, nor EPIPE before anything was
      # ever written: Ruby puts a pipe with no reader on a standard stream
      # it was given closed (2>&-), so no one was there to begin with. A
      # reader that read and went away (`| head -1`) still raises EPIPE,
      # which ends a collection as a stop (Collector::Silenced).
      class Forgiving < SimpleDelegator
        attr_reader :lost

        %i[write print puts printf << flush syswrite].each do |name|
          define_method(name) { |*args| forgiven(name) { __getobj__.public_send(name, *args) } }
        end

        private

        def forgiven(name)
          yield.tap { @spoken = true unless @lost }
        rescue *LOST, Errno::EPIPE => e
          raise if e.is_a?(Errno::EPIPE) && @spoken

          @lost ||= e
          (name == :<<) ? self : nil
        end
      end
    end
  end
end
