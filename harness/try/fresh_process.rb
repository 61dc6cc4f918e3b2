# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "../ractorbench/harness/channel"
require_relative "own_code"

module Ractorbench
  module Harness
    module Try
      # Runs a block in a forked copy of the check process, so that each part
      # of the check meets the user's code as a fresh run would: loaded, but
      # never called (first use happens where the part puts it), with nothing
      # frozen or loaded by another part. The check process itself never
      # loads the user's file before its last part, and never starts a
      # ractor, so forking it is safe.
      module FreshProcess
        module_function

        def available?
          Process.respond_to?(:fork) && !(RactorCompat.available? && ::Ractor.count > 1)
        end

        # The block's Hash (as plain data, through Marshal as it was before
        # the user's file loaded: OwnCode), or {"status" => "died", ...} when
        # the child ended without one. started: called with the child's pid.
        def run(started: nil)
          reader, writer = IO.pipe
          reader.binmode
          writer.binmode
          pid = fork do
            reader.close
            # Out of reach of the user's code closing descriptors by number.
            writer = HighDescriptor.move(writer, "wb")
            record = begin
              yield
            rescue Exception => e # rubocop:disable Lint/RescueException -- the parent reports it; never a trace
              {"status" => "error", "problem" => ErrorText.of(e), "backtrace" => Array(e.backtrace).first(8)}
            end
            begin
              writer.write(OwnCode.dump(Channel.plain(record)))
              writer.close
            rescue IOError, SystemCallError => e
              ClosedByRun.stop("the check's pipe to its parent", e)
            end
            exit!(0)
          end
          writer.close
          started&.call(pid)
          text = reader.read
          reader.close
          _, status = Process.wait2(pid)
          parse(text) || died(status)
        ensure
          started&.call(nil)
        end

        def parse(data)
          record = data.to_s.empty? ? nil : OwnCode.load(data)
          record.is_a?(Hash) ? record : nil
        rescue TypeError, ArgumentError
          nil
        end

        def died(status)
          how = status.signaled? ? "was killed by SIG#{Signal.signame(status.termsig)}" : "exited with status #{status.exitstatus}"
          {"status" => "died", "how" => how}
        end
      end
    end
  end
end
