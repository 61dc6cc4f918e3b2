# frozen_string_literal: true

module Ractorbench
  module Harness
    # A descriptor of the harness's own that the run's code closed (every IO
    # it found, say): nothing more can be sent on it, so one line on stderr
    # says what the run's code did, never a frame of the harness, and this
    # process ends. A fresh IO on fd 2: the run may have closed $stderr's
    # object too.
    module ClosedByRun
      STATUS = 1

      module_function

      # what: the descriptor, as a reader of the run's failure knows it.
      def stop(what, error)
        IO.for_fd(2, autoclose: false).syswrite("the run's code closed #{what} (#{error.message.lines.first&.chomp})\n")
      rescue IOError, SystemCallError
        nil
      ensure
        exit!(STATUS)
      end
    end
  end
end
